import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './test-tools.mjs';

/** Chromium (Debian's, or CHROMIUM_PATH), headless, with the flags that keep it off the closed network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
