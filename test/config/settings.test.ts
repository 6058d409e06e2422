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
        NEWSLETTER_URL: 'https://us21.list-manage.example.co.uk/subscribe/post?u=1a2b&id=3c4d',
        NEWSLETTER_EMAIL_FIELD: 'EMAIL',
        CMS_API_URL: 'https://cms.example.co.uk/wp-json',
        IMAGE_HOSTS: 'https://img.example.co.uk, HTTPS://CDN.example.net:443/',
      });
      expect(fromEnv).toEqual({
        siteUrl: 'https://growth.example.co.uk',
        basePath: '',
        brandName: 'Growth Co',
        checkoutUrl: 'https://pay.example.co.uk',
        checkoutVerify: false,
        supportEmail: 'help@example.co.uk',
        messagingNumber: '+44 7700 900999',
        newsletterUrl: 'https://us21.list-manage.example.co.uk/subscribe/post?u=1a2b&id=3c4d',
        newsletterEmailField: 'EMAIL',
        cmsApiUrl: 'https://cms.example.co.uk/wp-json',
        imageHosts: ['https://img.example.co.uk', 'https://cdn.example.net'],
        cmsMaxPosts: 10_000,
        target: '',
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

  it(
    'URLs are parsed, not matched: line breaks, credentials, queries, ' +
      'paths on the site URL and other schemes are refused',
    async () => {
      const project = await tempProject();
      try {
        const refused: [string, string, string][] = [
          ['SITE_URL', 'https://www.example.com\nSet-Cookie: a=b', 'line breaks'],
          ['SITE_URL', 'https://www.example.com/shop', 'origin only'],
          ['SITE_URL', 'javascript:alert(1)', 'http:// or https://'],
          ['CHECKOUT_URL', 'https://user:secret@pay.example.com', 'user name or password'],
          ['CHECKOUT_URL', 'https://pay.example.com/?x=1', 'query'],
          ['NEWSLETTER_URL', 'https://news.example.com/join#top', 'fragment'],
          ['NEWSLETTER_EMAIL_FIELD', 'e mail"', 'form field name'],
          ['CMS_API_URL', 'data:text/html,hi', 'http:// or https://'],
          ['IMAGE_HOSTS', 'https://img.example.com/photos', 'origin only'],
        ];
        for (const [name, value, says] of refused) {
          const error = await loadConfig(project.root, { [name]: value }).catch((e: unknown) => e);
          expect(error, `${name}=${value}`).toBeInstanceOf(StorefrontError);
          const problem = (error as StorefrontError).problems[0]!;
          expect(problem.code).toBe('SF140');
          expect(problem.file).toBe(`environment variable ${name}`);
          expect(problem.message).toContain(says);
        }
        // A mistyped posts folder fails instead of publishing the site without its blog.
        const noPosts = await runCli(['--root', project.root, 'build', '--posts', 'no-such-folder']);
        expect(noPosts.code).toBe(1);
        expect(noPosts.stderr).toContain('SF141  no-such-folder › --posts');
      } finally {
        await project.cleanup();
      }
    },
  );

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
