// The shipped catalogue: Natural Earth countries (npm world-atlas, 1:50m) and US Census states and counties (npm
// us-atlas, 1:10m), TopoJSON converted to GeoJSON with topojson-client. Neither source carries population: the
// US states and counties get the shipped Census figures (boundaries.populations.ts) in the same load; countries
// and territories stay null rather than invented.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, Geometry } from 'geojson';
import type { BoundaryGeometry } from './boundaries.geometry.js';
import type { BoundaryInput } from './boundaries.model.js';
import { COUNTRY_TITLES, countryCodes } from './countries.data.js';
import { STATE_POSTAL_BY_FIPS, countyTitle } from './us.data.js';
import { splitAtAntimeridian } from '../../lib/antimeridian.js';

const require = createRequire(import.meta.url);

export interface ShippedSelection {
  /** load the world's countries (default true) */
  countries?: boolean;
  /** FIPS codes of the US states to load with their counties (default: all) */
  stateFips?: readonly string[];
}

export function shippedBoundaries(selection: ShippedSelection = {}): BoundaryInput[] {
  const wanted = selection.stateFips ? new Set(selection.stateFips) : null;
  const stateWanted = (fips: string) => !wanted || wanted.has(fips);
  const states = shippedStates(stateWanted);
  const stateNames = new Map(states.map((s) => [s.codes[1]!, s.title]));
  return [
    ...(selection.countries === false ? [] : shippedCountries()),
    ...states,
    ...shippedCounties(stateWanted, stateNames),
  ];
}

export function shippedCountries(): BoundaryInput[] {
  const seen = new Set<string>();
  return polygonFeatures('world-atlas/countries-50m.json', 'countries').map(({ id, name, geometry }) => {
    const codes = countryCodes(id, name);
    // Two features share 036 (Australia and Ashmore and Cartier Is.); the second one is keyed by name.
    const key = id && !seen.has(id) ? id : slug(name);
    seen.add(key);
    const title = COUNTRY_TITLES[name] ?? name;
    const aliases = [codes?.alpha2, codes?.alpha3, name !== title ? name : undefined].filter((a): a is string => !!a);
    return {
      externalId: `country:${key}`,
      boundaryType: 'country',
      title,
      country: codes?.alpha2 ?? null,
      state: null,
      subtitle: codes?.continent ?? '',
      aliases,
      codes: [codes?.alpha2, codes?.alpha3, id].filter((c): c is string => !!c),
      population: null,
      geometry: splitAntimeridian(geometry),
    } satisfies BoundaryInput;
  });
}

function shippedStates(wanted: (fips: string) => boolean): BoundaryInput[] {
  return polygonFeatures('us-atlas/states-10m.json', 'states')
    .filter(({ id }) => !!id && wanted(id))
    .map(({ id, name, geometry }) => {
      const postal = STATE_POSTAL_BY_FIPS[id!];
      return {
        externalId: `us-state:${id}`,
        boundaryType: 'state',
        title: name,
        country: 'US',
        state: name,
        subtitle: 'US',
        aliases: postal ? [postal] : [],
        // codes[1] is the FIPS code (shippedBoundaries maps it to the state's name)
        codes: [postal ?? '', id!],
        population: null,
        geometry,
      } satisfies BoundaryInput;
    });
}

function shippedCounties(wanted: (fips: string) => boolean, stateNames: Map<string, string>): BoundaryInput[] {
  return polygonFeatures('us-atlas/counties-10m.json', 'counties')
    .filter(({ id }) => !!id && wanted(id.slice(0, 2)) && stateNames.has(id.slice(0, 2)))
    .map(({ id, name, geometry }) => {
      const stateName = stateNames.get(id!.slice(0, 2))!;
      return {
        externalId: `us-county:${id}`,
        boundaryType: 'county',
        title: countyTitle(id!, name),
        country: 'US',
        state: stateName,
        subtitle: `${stateName}, US`,
        aliases: [],
        codes: [id!],
        population: null,
        geometry,
      } satisfies BoundaryInput;
    });
}

interface NamedGeometry {
  id: string | undefined;
  name: string;
  geometry: BoundaryGeometry;
}

function polygonFeatures(file: string, object: string): NamedGeometry[] {
  const topology = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Topology;
  const collection = feature(topology, topology.objects[object] as GeometryCollection<{ name: string }>);
  return collection.features
    .filter((f): f is Feature<BoundaryGeometry, { name: string }> => isPolygonal(f.geometry))
    .map((f) => ({ id: f.id === undefined ? undefined : String(f.id), name: f.properties.name, geometry: f.geometry }));
}

/** world-atlas rings that jump across ±180° become separate polygons (see lib/antimeridian.ts). */
function splitAntimeridian(geometry: BoundaryGeometry): BoundaryGeometry {
  const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates).flatMap(
    splitAtAntimeridian,
  );
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons };
}

function isPolygonal(geometry: Geometry | null): geometry is BoundaryGeometry {
  return geometry?.type === 'Polygon' || geometry?.type === 'MultiPolygon';
}

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
