// Built-in places for synthetic listings when no boundary is named: US metro areas (centre, radius, price level,
// ZIP prefixes) and the street vocabulary of American addresses.

export interface Metro {
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  /** Sampling radius, km. */
  radiusKm: number;
  /** Typical price of a m² of house, USD (drives prices; ±40 % spread around it). */
  pricePerSquareMeter: number;
  /** First three ZIP digits of the area; the last two are drawn. */
  zipPrefixes: string[];
  /** Relative share of the listings. */
  weight: number;
}

export const METROS: Metro[] = [
  { city: 'Dallas', state: 'TX', latitude: 32.7767, longitude: -96.797, radiusKm: 30, pricePerSquareMeter: 2300, zipPrefixes: ['752', '750'], weight: 14 },
  { city: 'Fort Worth', state: 'TX', latitude: 32.7555, longitude: -97.3308, radiusKm: 22, pricePerSquareMeter: 1900, zipPrefixes: ['761'], weight: 7 },
  { city: 'Austin', state: 'TX', latitude: 30.2672, longitude: -97.7431, radiusKm: 25, pricePerSquareMeter: 3300, zipPrefixes: ['787'], weight: 10 },
  { city: 'Houston', state: 'TX', latitude: 29.7604, longitude: -95.3698, radiusKm: 35, pricePerSquareMeter: 1900, zipPrefixes: ['770', '773'], weight: 14 },
  { city: 'San Antonio', state: 'TX', latitude: 29.4241, longitude: -98.4936, radiusKm: 25, pricePerSquareMeter: 1700, zipPrefixes: ['782'], weight: 8 },
  { city: 'Denver', state: 'CO', latitude: 39.7392, longitude: -104.9903, radiusKm: 25, pricePerSquareMeter: 3800, zipPrefixes: ['802', '801'], weight: 9 },
  { city: 'Phoenix', state: 'AZ', latitude: 33.4484, longitude: -112.074, radiusKm: 35, pricePerSquareMeter: 2800, zipPrefixes: ['850', '852'], weight: 11 },
  { city: 'Atlanta', state: 'GA', latitude: 33.749, longitude: -84.388, radiusKm: 30, pricePerSquareMeter: 2600, zipPrefixes: ['303', '300'], weight: 9 },
  { city: 'Charlotte', state: 'NC', latitude: 35.2271, longitude: -80.8431, radiusKm: 22, pricePerSquareMeter: 2500, zipPrefixes: ['282'], weight: 6 },
  { city: 'Nashville', state: 'TN', latitude: 36.1627, longitude: -86.7816, radiusKm: 22, pricePerSquareMeter: 3100, zipPrefixes: ['372'], weight: 6 },
  { city: 'Tampa', state: 'FL', latitude: 27.9506, longitude: -82.4572, radiusKm: 22, pricePerSquareMeter: 2900, zipPrefixes: ['336'], weight: 6 },
];

export const STREET_NAMES = [
  'Maple', 'Oak', 'Cedar', 'Elm', 'Pine', 'Willow', 'Magnolia', 'Pecan', 'Live Oak', 'Hickory', 'Sycamore', 'Cypress',
  'Main', 'Church', 'Mill', 'Park', 'Lake', 'Hill', 'Ridge', 'Valley', 'Meadow', 'Spring', 'River', 'Creek',
  'Washington', 'Lincoln', 'Jefferson', 'Madison', 'Franklin', 'Jackson', 'Houston', 'Travis', 'Austin', 'Lamar',
  'Highland', 'Sunset', 'Prairie', 'Bluebonnet', 'Mockingbird', 'Lovers', 'Preston', 'Greenville', 'Swiss', 'Gaston',
  'Vista', 'Canyon', 'Mesa', 'Aspen', 'Juniper', 'Sage', 'Orchard', 'Harbor', 'Bay', 'Shady', 'Forest', 'Brook',
];
export const STREET_SUFFIXES = ['St', 'Ave', 'Dr', 'Ln', 'Blvd', 'Ct', 'Way', 'Pl', 'Rd', 'Trl', 'Cir', 'Pkwy'];

export const FIRST_NAMES = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Maria', 'Carlos', 'Aisha', 'Wei', 'Priya', 'Sofia', 'Daniel', 'Grace'];
export const LAST_NAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Nguyen', 'Patel', 'Kim', 'Lopez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Lee'];

export const REMARK_OPENINGS = [
  'Welcome home to this', 'Discover this', 'Move-in ready', 'Beautifully updated', 'Rare opportunity:', 'Stunning', 'Charming', 'Light-filled',
];
export const REMARK_FEATURES = [
  'an open floor plan', 'a chef’s kitchen with quartz counters', 'hardwood floors throughout', 'a spacious primary suite',
  'a covered patio', 'a large fenced backyard', 'vaulted ceilings', 'a two-car garage', 'energy-efficient windows',
  'a renovated bathroom', 'a walk-in pantry', 'a home office', 'a sparkling pool', 'mature shade trees', 'a fireplace',
];
export const REMARK_CLOSINGS = [
  'Close to schools, parks and shopping.', 'Minutes from downtown.', 'Walk to restaurants and cafés.',
  'Quick access to the freeway.', 'Schedule your tour today.', 'A must see!',
];

/** property_type → subtypes with weights, and the typical interior size (m²) of each subtype. */
export const PROPERTY_KINDS: { type: string; subtype: string; weight: number; medianSquareMeters: number; lot: boolean }[] = [
  { type: 'Residential', subtype: 'RES-Single Family', weight: 64, medianSquareMeters: 185, lot: true },
  { type: 'Residential', subtype: 'RES-Townhouse', weight: 10, medianSquareMeters: 150, lot: true },
  { type: 'Residential', subtype: 'RES-Condo', weight: 12, medianSquareMeters: 100, lot: false },
  { type: 'Residential Lease', subtype: 'LSE-House', weight: 8, medianSquareMeters: 160, lot: true },
  { type: 'Residential Lease', subtype: 'LSE-Apartment', weight: 3, medianSquareMeters: 80, lot: false },
  { type: 'Commercial', subtype: 'COM-Office', weight: 1, medianSquareMeters: 600, lot: true },
  { type: 'Land', subtype: 'LND-Residential', weight: 2, medianSquareMeters: 0, lot: true },
];
