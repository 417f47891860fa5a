// US Census FIPS state codes → USPS postal codes, and county title suffixes (us-atlas names carry none:
// "Dallas", not "Dallas County"). Public-domain Census facts.

export const STATE_POSTAL_BY_FIPS: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
  '60': 'AS',
  '66': 'GU',
  '69': 'MP',
  '72': 'PR',
  '78': 'VI',
};

// Alaska's county equivalents are boroughs, census areas, municipalities or city-and-boroughs.
const ALASKA_SUFFIX: Record<string, string> = {
  '02013': 'Borough',
  '02016': 'Census Area',
  '02020': 'Municipality',
  '02050': 'Census Area',
  '02060': 'Borough',
  '02068': 'Borough',
  '02070': 'Census Area',
  '02090': 'Borough',
  '02100': 'Borough',
  '02105': 'Census Area',
  '02110': 'City and Borough',
  '02122': 'Borough',
  '02130': 'Borough',
  '02150': 'Borough',
  '02158': 'Census Area',
  '02164': 'Borough',
  '02170': 'Borough',
  '02180': 'Census Area',
  '02185': 'Borough',
  '02188': 'Borough',
  '02195': 'Borough',
  '02198': 'Census Area',
  '02220': 'City and Borough',
  '02230': 'Municipality',
  '02240': 'Census Area',
  '02261': 'Census Area',
  '02275': 'City and Borough',
  '02282': 'City and Borough',
  '02290': 'Census Area',
};

/** The Census title of a county or county equivalent: "Dallas County", "Orleans Parish", "Richmond city". */
export function countyTitle(fips: string, name: string): string {
  const state = fips.slice(0, 2);
  const county = Number(fips.slice(2));
  if (fips === '11001' || fips === '32510') return name; // District of Columbia, Carson City
  if (state === '02') return ALASKA_SUFFIX[fips] ? `${name} ${ALASKA_SUFFIX[fips]}` : name;
  if (state === '22') return `${name} Parish`;
  if (state === '72') return `${name} Municipio`;
  if (['60', '66', '69', '78'].includes(state)) return name; // island territories: districts and islands
  // Independent cities: Virginia's 5xx–8xx codes, Baltimore and St. Louis.
  if ((state === '51' && county >= 500) || fips === '24510' || fips === '29510') return `${name} city`;
  return `${name} County`;
}
