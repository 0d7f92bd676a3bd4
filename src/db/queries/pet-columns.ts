/** The columns a pet is read with, wherever pets are read or returned. */
export const petColumns = ['id', 'name', 'category_id', 'status'] as const;
