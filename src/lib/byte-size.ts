// A byte count as people read limits: 1 MiB, 8 MiB, 64 KiB, 1.5 MiB; plain bytes below 1 KiB.
export function byteSize(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024 * 1024, 'GiB'],
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) if (bytes >= size) return `${Number((bytes / size).toFixed(1)).toString()} ${unit}`;
  return `${bytes} bytes`;
}
