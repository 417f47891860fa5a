// White label: host names owned by a brand, and the pages served on them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { addMembership, createBrand } from '../../test/helpers/factories.js';
import {
  brandHostnames,
  HostnameError,
  hostnameOfHeader,
  normaliseHostname,
  setBrandHostnames,
} from '../modules/brands/hostnames.service.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('white-label host names', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
    await addMembership(t.deps, world.user.id, world.other.id);
    await setBrandHostnames(t.deps.db, world.brokerage.id, ['Auth.Acme-Realty.example', 'login.acme.example']);
  });

  const params = (extra: Record<string, string> = {}) => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    ...extra,
  });

  it('validates and normalises host names', () => {
    expect(normaliseHostname('Auth.Example.COM.')).toBe('auth.example.com');
    for (const bad of [
      'https://a.example',
      'a.example:443',
      'a..example',
      '-a.example',
      'a_b.example',
      '10.0.0.1',
      '',
      'a.example/path',
    ]) {
      expect(() => normaliseHostname(bad), bad).toThrow(HostnameError);
    }
    expect(hostnameOfHeader('Auth.Acme.example:8443')).toBe('auth.acme.example');
    expect(hostnameOfHeader('[::1]:3000')).toBe('[::1]');
  });

  it('replaces and lists a brand’s host names, and refuses one another brand owns', async () => {
    expect(await brandHostnames(t.deps.db, world.brokerage.id)).toEqual([
      'auth.acme-realty.example',
      'login.acme.example',
    ]);
    await expect(setBrandHostnames(t.deps.db, world.other.id, ['login.acme.example'])).rejects.toThrow(
      /already belongs to brand/,
    );
    const spare = await createBrand(t.deps, { name: 'Spare' });
    expect(await setBrandHostnames(t.deps.db, spare.id, ['one.example', 'two.example'])).toEqual([
      'one.example',
      'two.example',
    ]);
    expect(await setBrandHostnames(t.deps.db, spare.id, ['two.example'])).toEqual(['two.example']);
    expect(await brandHostnames(t.deps.db, spare.id)).toEqual(['two.example']);
    await expect(setBrandHostnames(t.deps.db, '00000000-0000-4000-8000-000000000000', ['x.example'])).rejects.toThrow(
      /does not exist/,
    );
    await expect(brandHostnames(t.deps.db, 'nope')).rejects.toThrow(HostnameError);
  });

  it('shows the brand’s name on its host, with the app credited', async () => {
    const res = await new InjectBrowser(t.app, 'auth.acme-realty.example:443').get(authorizeUrl(params()));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<span class="brand-name">Acme Realty</span>');
    expect(res.body).toContain('Secured by Gable');
    const plain = await new InjectBrowser(t.app).get(authorizeUrl(params()));
    expect(plain.body).toContain('<span class="brand-name">Gable</span>');
  });

  it('offers only the brand’s subtree in the picker on its host', async () => {
    const picker = await startSignedIn(new InjectBrowser(t.app, 'login.acme.example'), world, params());
    expect(picker.body).toContain('Acme Realty');
    expect(picker.body).toContain('Acme Downtown');
    expect(picker.body).not.toContain('Other Brokerage');
  });

  it('does not preselect a brand outside the host’s subtree, and refuses it when posted', async () => {
    const browser = new InjectBrowser(t.app, 'login.acme.example');
    const picker = await startSignedIn(browser, world, params({ brandId: world.other.id }));
    expect(picker.body).toContain('Choose a brand');
    const res = await browser.submit(picker, '/oauth2/auth/brand', { brand: world.other.id });
    expect(res.statusCode).toBe(400);
    const inside = await startSignedIn(
      new InjectBrowser(t.app, 'login.acme.example'),
      world,
      params({ brandId: world.office.id }),
    );
    expect(inside.body).toContain('Allow Listing Syndicator to access Acme Downtown?');
  });

  it('says so when the user has no brand under the host’s brand', async () => {
    const lonely = await createBrand(t.deps, { name: 'Lonely Label' });
    await setBrandHostnames(t.deps.db, lonely.id, ['lonely.example']);
    const page = await startSignedIn(new InjectBrowser(t.app, 'lonely.example'), world, params());
    expect(page.body).toContain('No brand available');
    expect(page.body).toContain('value="decline"');
  });
});
