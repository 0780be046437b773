/**
 * The machine's face: what the workspace remembers about where and how reps run (Docker hosts,
 * the temperature a model refused, how long a model's reps and item image builds took).
 */
export { listDockerHosts, removeDockerHost, saveDockerHost } from '../docker-hosts';
export { workspaceTemperaturePolicy } from '../temperature-memory';
export { measuredRepTime, modelRepHistory } from '../model-history';
export { imageBuildMedians, imageBuilt, recordImageBuild } from '../image-builds';
