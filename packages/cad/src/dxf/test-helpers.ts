/** Builds ASCII DXF text from [code, value] pairs (test helper). */
export function dxfText(groups: [number, string | number][], eol = '\n'): string {
  return groups.map(([c, v]) => `${c}${eol}${v}${eol}`).join('');
}

/** A minimal file: optional header variables, then the ENTITIES section. */
export function entitiesDxf(entities: [number, string | number][], header: [number, string | number][] = []): Uint8Array {
  const groups: [number, string | number][] = [];
  if (header.length) groups.push([0, 'SECTION'], [2, 'HEADER'], ...header, [0, 'ENDSEC']);
  groups.push([0, 'SECTION'], [2, 'ENTITIES'], ...entities, [0, 'ENDSEC'], [0, 'EOF']);
  return new TextEncoder().encode(dxfText(groups));
}
