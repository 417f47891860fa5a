// The shared Liquid guards: what a user-written template cannot do, whichever feature renders it.
import { describe, expect, it } from 'vitest';
import { safeLiquid } from './safe-liquid.js';

const limits = { parseLimit: 100_000, renderLimit: 1_000, memoryLimit: 10_000_000 };
const html = safeLiquid({ escape: true, ...limits });
const plain = safeLiquid({ escape: false, ...limits });

describe('safeLiquid', () => {
  it('escapes every output in html, `raw` included; plain text is left as it is', async () => {
    const name = '<img src=x onerror=alert(1)>';
    expect(await html.parseAndRender('{{ n }}|{{ n | raw }}', { n: name })).toBe(
      '&lt;img src=x onerror=alert(1)&gt;|&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(await plain.parseAndRender('{{ n }}', { n: name })).toBe(name);
  });

  it.each(['{% include "/etc/passwd" %}', '{% render "x" %}', '{% layout "x" %}', '{% block a %}{% endblock %}'])(
    'refuses %s when parsed',
    (source) => {
      expect(() => html.parse(source)).toThrow(/cannot read files/);
      expect(() => plain.parse(source)).toThrow(/cannot read files/);
    },
  );

  it('renders unknown variables empty, refuses unknown filters, and reads own properties only', async () => {
    expect(await html.parseAndRender('[{{ contact.nickname }}]', { contact: {} })).toBe('[]');
    expect(() => html.parse('{{ x | shell }}')).toThrow();
    const inherited = Object.create({ secret: 'from the prototype' }) as Record<string, unknown>;
    expect(await html.parseAndRender('[{{ o.secret }}]', { o: inherited })).toBe('[]');
  });

  it('stops a render that runs past its time limit', async () => {
    await expect(
      html.parseAndRender('{% for i in (1..100000000) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}', {}),
    ).rejects.toThrow();
  });
});
