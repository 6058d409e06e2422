import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { StorefrontError } from '../../src/errors/storefront-error.js';
import { runCli, tempProject } from '../helpers.js';

describe('settings', () => {
  it('come from content/config.yaml and are overridden by environment variables', async () => {
    const project = await tempProject();
    try {
      const fromFile = await loadConfig(project.root, {});
      expect(fromFile.siteUrl).toBe('https://www.example.com');
      const fromEnv = await loadConfig(project.root, {
        SITE_URL: 'https://growth.example.co.uk/',
        BRAND_NAME: 'Growth Co',
        CHECKOUT_URL: 'https://pay.example.co.uk',
        SUPPORT_EMAIL: 'help@example.co.uk',
        MESSAGING_NUMBER: '+44 7700 900999',
        NEWSLETTER_URL: 'https://news.example.co.uk/join',
        CMS_API_URL: 'https://cms.example.co.uk/wp-json',
      });
      expect(fromEnv).toEqual({
        siteUrl: 'https://growth.example.co.uk',
        brandName: 'Growth Co',
        checkoutUrl: 'https://pay.example.co.uk',
        supportEmail: 'help@example.co.uk',
        messagingNumber: '+44 7700 900999',
        newsletterUrl: 'https://news.example.co.uk/join',
        cmsApiUrl: 'https://cms.example.co.uk/wp-json',
      });
    } finally {
      await project.cleanup();
    }
  });

  it('a bad value names the environment variable that set it', async () => {
    const project = await tempProject();
    try {
      const error = await loadConfig(project.root, { SITE_URL: 'not a url' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorefrontError);
      const problem = (error as StorefrontError).problems[0]!;
      expect(problem.code).toBe('SF140');
      expect(problem.file).toBe('environment variable SITE_URL');
      expect(problem.field).toBe('siteUrl');
      const result = await runCli(['--root', project.root, 'build'], { SITE_URL: 'ftp://example.com' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SITE_URL');
    } finally {
      await project.cleanup();
    }
  });

  it('an empty contact value hides that channel, with a warning (set empty in the environment)', async () => {
    const project = await tempProject();
    try {
      const result = await runCli(['--root', project.root, 'build'], { MESSAGING_NUMBER: '' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('warning: SF130');
      expect(result.stderr).toContain('MESSAGING_NUMBER');
      const { readFile } = await import('node:fs/promises');
      const contact = await readFile(`${project.root}/dist/contact.html`, 'utf8');
      expect(contact).not.toContain('WhatsApp');
      expect(contact).toContain('mailto:support@example.com');
    } finally {
      await project.cleanup();
    }
  });

  it('bad flags are refused with a message and a non-zero exit', async () => {
    const result = await runCli(['preview', '--port', 'eighty']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('must be a whole number');
    const unknown = await runCli(['build', '--outt', 'x']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("unknown option '--outt'");
  });
});
