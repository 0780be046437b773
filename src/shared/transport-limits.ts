/**
 * Size limits of the LabApi transport, shared by the server (which enforces them) and the
 * contract (whose request schemas must never accept more than the server reads).
 */

/** The largest JSON request body the server reads (413 beyond). */
export const maxJsonBodyBytes = 1024 * 1024;

/**
 * The longest base64 an inline `openBundle` request may carry: what fits in a JSON body with
 * room for the other fields. Larger bundles stream (`uploadBundle` in lab-client.ts) or, on
 * the engine's own machine, go by path.
 */
export const maxInlineBundleBase64 = maxJsonBodyBytes - 1024;

/** The largest bundle file the engine opens, streamed or by path (the engine's input limit). */
export const maxBundleBytes = 256 * 1024 * 1024;

/** The content type of a streamed bundle upload (`POST /api/openBundle`, raw gzip bytes). */
export const bundleContentType = 'application/gzip';
