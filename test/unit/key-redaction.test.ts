import { describe, expect, it } from 'vitest';
import { redactKeyJson, redactKeyText, rememberKeys } from '../../src/main/engine/secrets';

// One rule for every store write and every export.
describe('the key redaction rule', () => {
  it.each([
    ['Authorization: Bearer abcDEF123456ghiJKL789', 'Authorization: Bearer [redacted:key]'],
    ['key sk-proj-4fG7hJ2kL9mN1pQ3rS5tU8vW0xY', 'key [redacted:key]'],
    ['sk-ant-api03-Zq9xW2vT8uR5pL1mN4kJ7hG3fD6sA0bC.', '[redacted:key].'],
    ['"AIzaSyD4f8Gh2Jk9Lm3Np7Qr1St5Uv0Wx6Yz2Ab4"', '"[redacted:key]"'],
    ['token=ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'token=[redacted:key]'],
    ['AKIAIOSFODNN7EXAMPLE and more', '[redacted:key] and more'],
  ])('redacts the key shape in %j', (text, redacted) => {
    expect(redactKeyText(text)).toBe(redacted);
  });

  it.each([
    'task-runner-configuration-was-fine',
    'the risk-assessment-framework holds',
    'sk-learn is not a key',
    'Bearer of bad news',
    'logs/a.log moved into logs/',
  ])('leaves prose alone: %j', (text) => {
    expect(redactKeyText(text)).toBe(text);
  });

  it('keeps redacting a key it was handed after its variable is gone', () => {
    const env: Record<string, string | undefined> = { EXAMPLE_API_KEY: 'plain-value-91c2e7' };
    rememberKeys(env);
    delete env.EXAMPLE_API_KEY;
    expect(redactKeyText('echo plain-value-91c2e7!', env)).toBe('echo [redacted:EXAMPLE_API_KEY]!');
  });

  it('redacts a key inside JSON, escaped or not, and keeps the JSON readable', () => {
    rememberKeys({ QUOTED_TOKEN: 'with"quote-5521ab' });
    const value = { note: 'a with"quote-5521ab b', nested: ['sk-0123456789abcdefXYZ'] };
    expect(redactKeyJson(value)).toEqual({
      note: 'a [redacted:QUOTED_TOKEN] b',
      nested: ['[redacted:key]'],
    });
  });
});
