/**
 * A URL-like setting as a message may repeat it: whatever stands between `//` and `@` (a user
 * and a password) shown as `***`. Works on text that does not parse as a URL, since a refused
 * value is the one most likely to be malformed.
 */
export function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^/?#]*@/, '//***@');
}
