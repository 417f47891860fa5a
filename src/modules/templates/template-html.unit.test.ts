// The template sanitiser and URL policy: what may not get through, and what a good template keeps.
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './template-html.js';
import { isAllowedUrl, isPrivateHost } from '../../render/url-policy.js';
import { renderTemplate, variablesOf } from './template-language.js';

describe('sanitizeHtml', () => {
  it('removes scripts, event handlers, frames, forms and javascript: links', () => {
    const out = sanitizeHtml(
      '<div onclick="steal()" onmouseover=x>hi</div><script>alert(1)</script><iframe src="https://evil.example"></iframe><form action="/x"><input></form><a href="javascript:alert(1)">a</a><a href="JaVa&#x09;script:alert(1)">b</a><img src=x onerror=alert(1)>',
    );
    expect(out).not.toMatch(/onclick|onmouseover|onerror|<script|alert\(1\)<|<iframe|<form|<input|javascript/i);
    expect(out).toContain('<div>hi</div>');
  });

  it('keeps a styled page: doctype, head, style, classes, https images, data images', () => {
    const page =
      '<!DOCTYPE html><html><head><meta charset="utf-8"><style>.a > .b { color: red; background: url(https://img.example.com/a.jpg) }</style></head><body><div class="a" style="color: blue"><img src="https://img.example.com/x.jpg" alt="x"><img src="data:image/png;base64,AAAA"></div></body></html>';
    const out = sanitizeHtml(page);
    expect(out.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(out).toContain('.a > .b { color: red; background: url(https://img.example.com/a.jpg) }');
    expect(out).toContain('<img src="https://img.example.com/x.jpg" alt="x" />');
    expect(out).toContain('data:image/png;base64,AAAA');
    expect(out).toContain('style="color: blue"');
  });

  it('loads fonts only from the allow-listed hosts', () => {
    const out = sanitizeHtml(
      '<head><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"><link rel="stylesheet" href="https://evil.example/fonts.css"><link rel="preload" href="https://fonts.gstatic.com/x.woff2">' +
        '<style>@import url("https://evil.example/a.css"); @import "https://fonts.googleapis.com/css2?family=Lato"; @font-face { font-family: X; src: url(https://evil.example/x.woff2) } @font-face { font-family: Y; src: url(https://fonts.gstatic.com/y.woff2) }</style></head>',
    );
    expect(out).toContain('https://fonts.googleapis.com/css2?family=Inter');
    expect(out).toContain('https://fonts.googleapis.com/css2?family=Lato');
    expect(out).toContain('https://fonts.gstatic.com/y.woff2');
    expect(out).not.toContain('evil.example');
    expect(out).not.toContain('preload');
  });

  it('removes file: URLs and private addresses in attributes and CSS', () => {
    const out = sanitizeHtml(
      '<img src="file:///etc/passwd"><img src="http://169.254.169.254/latest/meta-data/"><img src="http://localhost:5432/"><img src="http://10.0.0.5/a.png"><img src="http://[::1]/a"><img src="http://2130706433/"><img src="//evil.example/a">' +
        '<div style="background: url(http://127.0.0.1/x)"></div><style>.x { background-image: url(\'http://192.168.1.1/y\') }</style><a href="http://intranet/">i</a><img src="http://printer.local/a.png">',
    );
    expect(out).not.toMatch(
      /file:|169\.254|localhost|10\.0\.0\.5|::1|2130706433|evil\.example|127\.0\.0\.1|192\.168|intranet|printer\.local/,
    );
  });

  it('keeps template markup, and URLs that are template expressions', () => {
    const out = sanitizeHtml(
      '<style>.a { color: {{ brand.palette.button_bg_color | default: "#fff" }} }</style>{% if listing.price > 5 %}<img src="{{ listing.cover_image_url }}">{% endif %}<div style="background-image: url({{ listing.cover_image_url }})"></div>',
      { template: true },
    );
    expect(out).toContain('{{ brand.palette.button_bg_color | default: "#fff" }}');
    expect(out).toContain('{% if listing.price > 5 %}');
    expect(out).toContain('<img src="{{ listing.cover_image_url }}" />');
    expect(out).toContain('url({{ listing.cover_image_url }})');
  });

  it('a template expression cannot smuggle a script through rendering', async () => {
    const template = sanitizeHtml('<p>{{ contact.first_name }}</p><p>{{ contact.first_name | raw }}</p>', {
      template: true,
    });
    const { html } = await renderTemplate(template, { contact: { first_name: '<script>alert(1)</script>' } });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('url policy', () => {
  it('tells private hosts from public ones', () => {
    for (const host of [
      'localhost',
      'a.localhost',
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '::1',
      '[fe80::1]',
      '0.0.0.0',
      'printer',
      'x.internal',
      '0x7f000001',
      '017700000001',
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    for (const host of ['example.com', 'fonts.googleapis.com', '93.184.216.34', '2606:4700::1111'])
      expect(isPrivateHost(host), host).toBe(false);
  });

  it('admits this server’s own origin when asked', () => {
    expect(isAllowedUrl('http://127.0.0.1:3000/demo/logos/wide.svg', 'image')).toBe(false);
    expect(
      isAllowedUrl('http://127.0.0.1:3000/demo/logos/wide.svg', 'image', { ownOrigin: 'http://127.0.0.1:3000' }),
    ).toBe(true);
    expect(isAllowedUrl('http://127.0.0.1:3001/x', 'image', { ownOrigin: 'http://127.0.0.1:3000' })).toBe(false);
  });
});

describe('template language', () => {
  it('lists the variables a template reads, not its loop variables', () => {
    expect(
      variablesOf(
        '{{ listing.price }} {% for u in listing.gallery_image_urls %}{{ u }}{% endfor %} {{ user.first_name }}',
      ),
    ).toEqual(['listing.gallery_image_urls', 'listing.price', 'user.first_name']);
  });

  it('renders unknown variables empty and reports them', async () => {
    const { html, unknown } = await renderTemplate(
      '<p>{{ user.first_name }}|{{ user.shoe_size }}|{{ listing.price | money }}</p>',
      { user: { first_name: 'Dana' } },
    );
    expect(html).toBe('<p>Dana||</p>');
    expect(unknown).toEqual(['listing.price', 'user.shoe_size']);
  });

  it('has no file system: include and render find nothing', async () => {
    await expect(renderTemplate("{% include '/etc/passwd' %}", {})).rejects.toMatchObject({ http: 400 });
    await expect(renderTemplate("{% render '../../package.json' %}", {})).rejects.toMatchObject({ http: 400 });
  });
});
