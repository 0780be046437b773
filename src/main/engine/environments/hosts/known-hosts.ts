/**
 * Host-key checking for `ssh://` Docker hosts, the way `ssh` itself does it: the host's key must
 * be in the user's known_hosts file (plain or hashed names, `[host]:port` for other ports), else
 * the connection is refused with the command that adds it. Without this a machine in the middle
 * could take the judge's tool commands and answer them.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The known_hosts file: `CUELAB_SSH_KNOWN_HOSTS` when set, else `~/.ssh/known_hosts`. */
export function knownHostsPath(): string {
  return process.env.CUELAB_SSH_KNOWN_HOSTS ?? join(homedir(), '.ssh', 'known_hosts');
}

/** The name known_hosts uses for `host` on `port` (`[host]:port` unless port 22). */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** True when `pattern` (one comma-separated entry, maybe hashed `|1|salt|hash`) names `name`. */
function patternMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith('|1|')) {
    const [, , salt, hash] = pattern.split('|');
    if (!salt || !hash) return false;
    const digest = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return digest === hash;
  }
  // Plain patterns may use `*` and `?` wildcards, as in OpenSSH.
  const glob = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${glob}$`).test(name.toLowerCase());
}

/** What known_hosts says of `key` (the raw public-key blob) for `name`. */
export function knownHostVerdict(
  text: string,
  name: string,
  key: Buffer,
): 'known' | 'revoked' | 'changed' | 'unknown' {
  const blob = key.toString('base64');
  let listed = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0]?.startsWith('@') ? fields.shift() : undefined;
    const [patterns, , keyBlob] = fields;
    if (!patterns || !keyBlob) continue;
    const names = patterns.split(',');
    if (names.some((pattern) => pattern.startsWith('!') && patternMatches(pattern.slice(1), name)))
      continue;
    if (!names.some((pattern) => patternMatches(pattern, name))) continue;
    if (marker === '@revoked' && keyBlob === blob) return 'revoked';
    if (marker) continue; // @cert-authority lines sign certificates; plain keys do not use them.
    if (keyBlob === blob) return 'known';
    listed = true;
  }
  return listed ? 'changed' : 'unknown';
}

/**
 * A host verifier for ssh2: accepts `key` only when known_hosts lists it for `host:port`; on
 * refusal `onRefused` receives the reason, phrased as what the user should do.
 */
export function knownHostsVerifier(
  host: string,
  port: number,
  onRefused: (reason: string) => void,
): (key: Buffer) => boolean {
  return (key) => {
    const path = knownHostsPath();
    const name = knownHostName(host, port);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      text = '';
    }
    const verdict = knownHostVerdict(text, name, key);
    if (verdict === 'known') return true;
    const scan = `ssh-keyscan${port === 22 ? '' : ` -p ${port}`} ${host} >> ${path}`;
    onRefused(
      verdict === 'unknown'
        ? `the ssh host key of ${name} is not in ${path}: check it and add it (e.g. \`${scan}\`, or connect once with ssh)`
        : verdict === 'revoked'
          ? `the ssh host key of ${name} is marked @revoked in ${path}`
          : `the ssh host key of ${name} does not match the one in ${path} (it changed, or something is in between): check with the host's owner before replacing it`,
    );
    return false;
  };
}
