/** Chromium or Chrome, for playwright-core: CHROMIUM_PATH, else Debian's; see test-tools.mjs. */
export declare function chromiumPath(): string;
/** Chromium's flags for the tests and scripts: headless, and kept off the network. */
export declare const CHROMIUM_ARGS: string[];
/** playwright-core's launch options for that Chromium. */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };
/** nginx: NGINX_PATH, else the one on PATH. */
export declare function nginxPath(): string;
/** nginx's own mime.types. */
export declare function nginxMimeTypes(): string;
/** The brotli_static module to load, '' when built in, undefined when there is none. */
export declare function brotliModule(): string | undefined;
/** What the tests need and is missing here, each with what to do about it. */
export declare function missingTestTools(): string[];
