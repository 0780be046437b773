/**
 * An imported item's container limits in a few words for the Import screen: what the item asks
 * for, and "default" where it asks nothing (the Docker backend's own 1 CPU, 1 GiB, 256 pids).
 */
import type { ItemLimits } from '../../../shared/lab-api/import';

/** Each limit as a short phrase, in the order cpus, memory, pids, network, storage. */
export function limitPhrases(limits: ItemLimits): string[] {
  const memory = limits.memoryMb === undefined ? 'memory default' : size(limits.memoryMb);
  return [
    limits.cpus === undefined
      ? 'CPUs default'
      : `${limits.cpus} CPU${limits.cpus === 1 ? '' : 's'}`,
    memory,
    limits.pids === undefined ? 'pids default' : `${limits.pids} pids`,
    limits.network ? 'network on' : 'no network',
    // Shown because the task asked for it; Docker here has no disk quota to give.
    ...(limits.storageMb !== undefined ? [`${size(limits.storageMb)} disk (not enforced)`] : []),
  ];
}

function size(mb: number): string {
  return mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GiB` : `${mb} MiB`;
}
