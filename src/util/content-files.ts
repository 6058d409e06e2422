/**
 * The content files every stage names, relative to the project folder, as messages and hints
 * show them: one place for each path (src/errors/catalogue.ts says them in its hints).
 */
export const CONFIG_FILE = 'content/config.yaml';
export const CATALOGUE_FILE = 'content/catalogue.yaml';
export const TRADER_FILE = 'content/trader.yaml';
export const SITE_FILE = 'content/site.yaml';
