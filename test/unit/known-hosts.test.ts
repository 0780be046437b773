// Host-key checks for ssh:// Docker hosts against known_hosts text. The hashed lines were made
// by OpenSSH itself (`ssh-keygen -H`) from the plain ones, so both spellings are real.
import { describe, expect, it } from 'vitest';
import {
  knownHostName,
  knownHostVerdict,
} from '../../src/main/engine/environments/hosts/known-hosts';

const blob = 'AAAAC3NzaC1lZDI1NTE5AAAAILuE9wtgZYmklmgeLWzkLUpSmN5l/guYZ3kwHauAIgHQ';
const key = Buffer.from(blob, 'base64');
const other = Buffer.from(
  'AAAAC3NzaC1lZDI1NTE5AAAAIOx0c4IYMOz9jyt3e6bXhWcNDHOQ0Yh/Z9JnYIPhGzCa',
  'base64',
);
const plain = `# a comment\n[127.0.0.1]:2222 ssh-ed25519 ${blob}\nbox.example ssh-ed25519 ${blob}\n`;
const hashed = [
  `|1|IWu9RdO1jLoBS25Pw5bIQzkkRRM=|b6CJyd3hKJipOsW3vZvo+v2CJUw= ssh-ed25519 ${blob}`,
  `|1|yTRN9D/ORSYFOCXqSO91AAFUof4=|uuc/91QcvvqXLAzf/hIMxS8JuPE= ssh-ed25519 ${blob}`,
].join('\n');

describe('known_hosts', () => {
  it('names non-22 ports the way OpenSSH does', () => {
    expect(knownHostName('box.example', 22)).toBe('box.example');
    expect(knownHostName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });

  it('knows a listed key under plain and hashed names', () => {
    for (const text of [plain, hashed]) {
      expect(knownHostVerdict(text, '[127.0.0.1]:2222', key)).toBe('known');
      expect(knownHostVerdict(text, 'box.example', key)).toBe('known');
      expect(knownHostVerdict(text, 'BOX.example', key)).toBe(text === plain ? 'known' : 'unknown');
    }
  });

  it('tells an unknown host from a changed key and a revoked one', () => {
    expect(knownHostVerdict(plain, '127.0.0.1', key)).toBe('unknown');
    expect(knownHostVerdict(plain, '[127.0.0.1]:2223', key)).toBe('unknown');
    expect(knownHostVerdict(hashed, 'box.example', other)).toBe('changed');
    expect(knownHostVerdict(`@revoked * ssh-ed25519 ${blob}\n${plain}`, 'box.example', key)).toBe(
      'revoked',
    );
    expect(
      knownHostVerdict(`@revoked box.example ssh-ed25519 ${blob}\n${plain}`, 'box.example', key),
    ).toBe('revoked');
    expect(knownHostVerdict('', 'box.example', key)).toBe('unknown');
  });

  it('matches wildcard names', () => {
    expect(knownHostVerdict(`*.example ssh-ed25519 ${blob}\n`, 'box.example', key)).toBe('known');
    expect(knownHostVerdict(`bo?.example ssh-ed25519 ${blob}\n`, 'box.example', key)).toBe('known');
    expect(knownHostVerdict(`*.example ssh-ed25519 ${blob}\n`, 'boxexample', key)).toBe('unknown');
  });

  it('skips a negated name and ignores certificate-authority lines', () => {
    expect(
      knownHostVerdict(`!box.example,box.example ssh-ed25519 ${blob}\n`, 'box.example', key),
    ).toBe('unknown');
    expect(
      knownHostVerdict(`@cert-authority box.example ssh-ed25519 ${blob}\n`, 'box.example', key),
    ).toBe('unknown');
  });
});
