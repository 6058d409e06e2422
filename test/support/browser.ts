import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from './test-tools.mjs';

/** Chromium (Debian's, or CHROMIUM_PATH), headless, with the flags that keep it off the closed network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}
