import packageJson from '../../../package.json';

/** The engine's version: the package version, one number for app, engine and CLI. */
export const engineVersion: string = packageJson.version;
