// Photos of the demo world's synthetic listings, drawn here and served by this server (demo-photos.routes.ts), so a
// newcomer's postcards, alert emails and listing pages show a house where a photo belongs, with nothing else
// installed. Eight 4:3 SVG facades — colours of walls, roof, door and sky vary — plain shapes, no text, no fonts.

interface Facade {
  sky: [string, string];
  wall: string;
  roof: string;
  trim: string;
  door: string;
  lawn: string;
}

const FACADES: Facade[] = [
  { sky: ['#9cc9f0', '#e8f3fc'], wall: '#f2e8d5', roof: '#5b4636', trim: '#ffffff', door: '#2f5d50', lawn: '#7fae5a' },
  { sky: ['#f6c9a4', '#fcefe3'], wall: '#d8e2ea', roof: '#39424e', trim: '#ffffff', door: '#b23a48', lawn: '#8cb369' },
  { sky: ['#a7d3e8', '#eef8fc'], wall: '#c65d3b', roof: '#4a3b33', trim: '#f4efe6', door: '#243b53', lawn: '#6a994e' },
  { sky: ['#b9c7e6', '#f0f3fa'], wall: '#fdfdfb', roof: '#2d3142', trim: '#2d3142', door: '#e0a458', lawn: '#90be6d' },
  { sky: ['#8fc1e3', '#e6f1f8'], wall: '#e9d8a6', roof: '#6b4f3a', trim: '#ffffff', door: '#005f73', lawn: '#94a65e' },
  { sky: ['#f2d0a9', '#fdf4ea'], wall: '#8d99ae', roof: '#2b2d42', trim: '#edf2f4', door: '#ef233c', lawn: '#7cae7a' },
  { sky: ['#a9d6e5', '#f1f9fb'], wall: '#f7ede2', roof: '#84a59d', trim: '#ffffff', door: '#f28482', lawn: '#81b29a' },
  { sky: ['#c3d5f2', '#f3f6fc'], wall: '#b7b7a4', roof: '#3f4238', trim: '#ffe8d6', door: '#6b705c', lawn: '#a5a58d' },
];

function facadeSvg(f: Facade): string {
  const window = (x: number, y: number) =>
    `<rect x="${x}" y="${y}" width="70" height="60" fill="#cfe3f1" stroke="${f.trim}" stroke-width="8"/>` +
    `<path d="M${x + 35} ${y} V${y + 60} M${x} ${y + 30} H${x + 70}" stroke="${f.trim}" stroke-width="5"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${f.sky[0]}"/>` +
    `<stop offset="1" stop-color="${f.sky[1]}"/></linearGradient></defs>` +
    `<rect width="800" height="600" fill="url(#sky)"/>` +
    `<rect y="470" width="800" height="130" fill="${f.lawn}"/>` +
    `<path d="M372 600 L392 470 H438 L458 600 Z" fill="#d6d0c4"/>` +
    `<rect x="170" y="250" width="460" height="230" fill="${f.wall}"/>` +
    `<path d="M140 262 L400 120 L660 262 Z" fill="${f.roof}"/>` +
    `<rect x="560" y="140" width="40" height="90" fill="${f.roof}"/>` +
    window(215, 300) +
    window(515, 300) +
    `<rect x="370" y="330" width="90" height="150" fill="${f.door}" stroke="${f.trim}" stroke-width="8"/>` +
    `<circle cx="443" cy="410" r="6" fill="${f.trim}"/>` +
    `<circle cx="400" cy="205" r="28" fill="#cfe3f1" stroke="${f.trim}" stroke-width="8"/>` +
    `<ellipse cx="120" cy="470" rx="70" ry="40" fill="#5a8f3c"/><ellipse cx="690" cy="472" rx="80" ry="44" fill="#5a8f3c"/>` +
    `</svg>`
  );
}

/** The photos by name (`house-1` … `house-8`). */
export const DEMO_PHOTOS: Record<string, string> = Object.fromEntries(
  FACADES.map((facade, i) => [`house-${i + 1}`, facadeSvg(facade)]),
);
export const DEMO_PHOTO_COUNT = FACADES.length;

/** The path of a listing's i-th photo: its facade first, then the others in turn. */
export function demoPhotoPath(mlsNumber: string, index: number): string {
  let hash = 0;
  for (const char of mlsNumber) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `/demo/photos/house-${((hash + index) % DEMO_PHOTO_COUNT) + 1}.svg`;
}
