import { AppError } from '../../errors/index.ts';
import { MAX_SAFE_ID } from '../pets/pet-schema.ts';

/**
 * A resource id: a number (REST, already parsed by its schema) or the decimal string a
 * GraphQL ID carries. Positive, and exact (at most 2^53−1), else VALIDATION_FAILED.
 */
export function parseId(value: number | string, noun: 'Pet' | 'Order'): number {
  const id = typeof value === 'number' ? value : /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_SAFE_ID) {
    throw new AppError('VALIDATION_FAILED', `${noun} id must be a positive integer no greater than ${MAX_SAFE_ID}.`);
  }
  return id;
}
