/**
 * A process that makes one rep container ahead and then waits to be killed: the test kills it
 * with SIGKILL and checks that orphan cleanup removes what it left. Args: the prepared item
 * (JSON, from the test's own prepareItem), and the item id to label the container with.
 */
import Docker from 'dockerode';
import type { PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { RepPrewarmer } from '../../src/main/engine/environments/docker/prewarm';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';

async function main(): Promise<void> {
  const [json = '{}', item = ''] = process.argv.slice(2);
  const docker = new Docker();
  const prepared = { ...(JSON.parse(json) as PreparedItem), itemId: item };
  new RepPrewarmer().prepareNext('local', docker, prepared, { study: item });
  for (;;) {
    const made = await listManagedContainers(docker, { item });
    if (made.some((container) => container.State === 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
