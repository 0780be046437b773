import { createLabClient, type EngineAddress } from '../../shared/lab-client';
import type { LabApi } from '../../shared/lab-api';

let cached: { address: EngineAddress; client: LabApi } | null = null;

/** The LabApi client for an address, reused while the address stays the same. */
export function labClientFor(address: EngineAddress): LabApi {
  if (
    !cached ||
    cached.address.baseUrl !== address.baseUrl ||
    cached.address.token !== address.token
  ) {
    cached = { address, client: createLabClient(address) };
  }
  return cached.client;
}
