import { describe, expect, it } from 'vitest';
import { regularMediaType } from '../../src/graphql/regular-media-type.ts';

// The fast path answers only what this picks; everything it leaves (null) is Yoga's to negotiate.
describe('regularMediaType', () => {
  it.for([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    [' Application/JSON ', 'application/json'],
  ] as const)('Accept %s: %s', ([accept, type]) => {
    expect(regularMediaType(accept)).toBe(type);
  });

  it.for([
    'text/event-stream',
    'multipart/mixed',
    'application/json;q=0.9',
    'text/html, application/json',
    'application/json, text/event-stream',
    'json',
  ])('Accept %s: left to Yoga', (accept) => {
    expect(regularMediaType(accept)).toBeNull();
  });
});
