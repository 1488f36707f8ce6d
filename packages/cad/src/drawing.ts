/** Helpers over the drawing model that every reader shares (browser-safe, no dependencies). */
import type { Drawing, Entity, Header, Layout } from './model';
import type { Vec3 } from './geom/vector';

/** A drawing with `header` and nothing else: the readers fill it in. */
export function emptyDrawing(header: Header): Drawing {
  return {
    header,
    layers: {},
    linetypes: {},
    textStyles: {},
    dimStyles: {},
    blockRecords: [],
    blocks: {},
    layouts: [],
    modelSpace: [],
    imageDefs: {},
    stats: { entities: 0, unknown: {} },
  };
}

/**
 * Fills the typed header fields from `header.vars` ($INSUNITS, $EXTMIN, $LTSCALE, ...). Unset
 * extents (written as +1e20 / -1e20) are left out.
 */
export function applyHeaderVars(h: Header): void {
  const v = h.vars;
  const num = (k: string): number | undefined => (typeof v[k] === 'number' ? (v[k] as number) : undefined);
  const point = (k: string): Vec3 | undefined => (Array.isArray(v[k]) ? (v[k] as Vec3) : undefined);
  const set = <K extends keyof Header>(key: K, value: Header[K] | undefined): void => {
    if (value !== undefined) h[key] = value;
  };
  set('insUnits', num('$INSUNITS'));
  set('measurement', num('$MEASUREMENT'));
  const e0 = point('$EXTMIN');
  const e1 = point('$EXTMAX');
  if (e0 && e1 && e0[0] <= e1[0] && e0[1] <= e1[1] && Math.abs(e0[0]) < 1e19 && Math.abs(e1[0]) < 1e19) {
    set('extMin', e0);
    set('extMax', e1);
  }
  set('limMin', point('$LIMMIN'));
  set('limMax', point('$LIMMAX'));
  set('ltscale', num('$LTSCALE'));
  set('psltscale', num('$PSLTSCALE'));
  set('pdmode', num('$PDMODE'));
  set('pdsize', num('$PDSIZE'));
  set('textsize', num('$TEXTSIZE'));
  set('dimscale', num('$DIMSCALE'));
  if (typeof v.$TEXTSTYLE === 'string') h.textStyle = v.$TEXTSTYLE;
  if (typeof v.$DIMSTYLE === 'string') h.dimstyle = v.$DIMSTYLE;
}

/**
 * The last step of every reader: a layout's unnumbered sheet viewport gets its id (`numberSheet`),
 * IMAGE entities get their file name from their IMAGEDEF, and the entity types kept as UNKNOWN are
 * summed up in one warning.
 */
export function finishDrawing(d: Drawing, paperEntities: Entity[], warnings: string[]): void {
  for (const layout of d.layouts) if (!layout.isModel) numberSheet(layout);
  for (const list of [d.modelSpace, paperEntities, ...Object.values(d.blocks).map((b) => b.entities)]) {
    for (const e of list) {
      if (e.type === 'IMAGE' && e.imageDefHandle) {
        const def = d.imageDefs[e.imageDefHandle];
        if (def) e.fileName = def.fileName;
      } else if (e.type === 'UNDERLAY' && e.defHandle) {
        const def = d.imageDefs[e.defHandle];
        if (def) {
          e.fileName = def.fileName;
          if (def.page !== undefined) e.page = def.page;
        }
      }
    }
  }
  const unknown = Object.entries(d.stats.unknown);
  if (unknown.length) {
    const total = unknown.reduce((sum, [, n]) => sum + n, 0);
    warnings.push(`${total} entities of unsupported types kept as UNKNOWN: ${unknown.map(([t, n]) => `${t} (${n})`).join(', ')}`);
  }
}

/**
 * A paper layout's sheet (its overall viewport, the one that shows paper space itself) is the
 * viewport with id 1. A layout that numbers none takes its first viewport for the sheet when that
 * one is unnumbered (id 0 or less) and shows its own frame at 1:1, as the sheet always does: DWG
 * keeps no viewport ids (every reader takes the first viewport for the sheet), and LibreDWG's DXF
 * writes id 0 for the viewports of the layouts that are not current (others write -1). Without
 * this, such a sheet would be drawn as a window on the model space around the page's centre
 * (decision 0040).
 */
function numberSheet(layout: Layout): void {
  const first = layout.viewports[0];
  if (!first || first.id > 0 || layout.viewports.some((v) => v.id === 1)) return;
  const size = Math.max(Math.abs(first.height), Math.abs(first.width), 1e-9);
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= size * 1e-6;
  const showsItself =
    near(first.viewCenter[0], first.center[0]) && near(first.viewCenter[1], first.center[1]) && near(first.viewHeight, first.height);
  if (showsItself) first.id = 1;
}

/**
 * Entities in their draw order: SORTENTSTABLE order for their owner (a block record handle, upper
 * case in `drawOrder`), entities not listed by their handle; as given when the owner has no table.
 * The display draws in this order, and the writers write in it (their handles are fresh and rise
 * in writing order, so the written file draws the same without a SORTENTSTABLE).
 */
export function inDrawOrder(d: Drawing, entities: Entity[], owner: string | undefined): Entity[] {
  const table = owner ? d.drawOrder?.[owner.toUpperCase()] : undefined;
  if (!table || !Object.keys(table).length) return entities;
  const key = (e: Entity): string => {
    const h = (e.handle ?? '').toUpperCase();
    const k = (table[h] ?? h).replace(/^0+/, '');
    return k.padStart(16, '0');
  };
  return entities
    .map((e, i) => ({ e, i, k: key(e) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
    .map((x) => x.e);
}

/** The draw order of model space, a layout's paper space or a block (by its record handle). */
export function recordHandleOf(d: Drawing, blockName: string): string | undefined {
  const key = blockName.toUpperCase();
  return (
    d.blockRecords.find((r) => r.name.toUpperCase() === key)?.handle ??
    Object.values(d.blocks).find((b) => b.name.toUpperCase() === key)?.recordHandle
  );
}

/**
 * A paper layout's entities as the writers write them: its own viewport (id 1, the sheet) first,
 * as AutoCAD keeps it (a DWG viewport has no id: readers take the first one for the sheet), then
 * the rest in draw order.
 */
export function layoutEntitiesInOrder(d: Drawing, layout: Layout): Entity[] {
  const all = inDrawOrder(d, layout.entities ?? [], layout.blockRecordHandle);
  const sheet = all.find((e) => e.type === 'VIEWPORT' && e.id === 1);
  return sheet ? [sheet, ...all.filter((e) => e !== sheet)] : all;
}

/**
 * The applications whose extended data the drawing's entities carry (model, layouts, blocks), each
 * name once (the first spelling met; APPID names are case-insensitive), for the writers' APPID tables.
 */
export function xdataApps(d: Drawing): string[] {
  const names = new Map<string, string>();
  const add = (es: readonly Entity[] | undefined): void => {
    for (const e of es ?? []) for (const x of e.xdata ?? []) if (!names.has(x.app.toUpperCase())) names.set(x.app.toUpperCase(), x.app);
  };
  add(d.modelSpace);
  for (const l of d.layouts) add(l.entities);
  for (const b of Object.values(d.blocks)) add(b.entities);
  return [...names.values()];
}
