/**
 * The header variables section body: every variable in the order the format fixes for the release
 * (R2000 to R2018), values from the drawing's header where it has them, AutoCAD's defaults
 * otherwise. Handles point at the objects the writer creates. Up to R2004 everything is one bit
 * stream; from R2007 the handles and the strings (UTF-16) have streams of their own, HANDSEED
 * staying in the data, as in the objects.
 */
import type { Header } from '../model';
import { BitWriter, Ref } from './bits';
import type { Vec3 } from '../geom/vector';

/** Handles of the objects the header names. 0 = none. */
export interface HeaderHandles {
  handseed: number;
  clayer: number;
  textstyle: number;
  celtype: number;
  dimstyle: number;
  cmlstyle: number;
  dimtxsty: number;
  blockControl: number;
  layerControl: number;
  styleControl: number;
  ltypeControl: number;
  viewControl: number;
  ucsControl: number;
  vportControl: number;
  appidControl: number;
  dimstyleControl: number;
  vxControl: number;
  groupDict: number;
  mlinestyleDict: number;
  namedObjects: number;
  layoutDict: number;
  plotSettingsDict: number;
  plotStyleDict: number;
  materialDict: number;
  colorDict: number;
  paperSpace: number;
  modelSpace: number;
  byLayer: number;
  byBlock: number;
  continuous: number;
}

/** Where the variables go: one stream up to R2004 (`h` is `d`, no `s`), three from R2007. */
export interface HeaderStreams {
  d: BitWriter;
  h: BitWriter;
  s: BitWriter | null;
}

/** The streams of a release: shared up to R2004, separate from R2007. */
export function headerStreams(year: number): HeaderStreams {
  const d = new BitWriter(1024);
  return year >= 2007 ? { d, h: new BitWriter(256), s: new BitWriter(256) } : { d, h: d, s: null };
}

export interface HeaderContext {
  year: number;
  /** Encodes a string in the file's code page. */
  text: (s: string) => Uint8Array;
  /** Extents and limits already chosen by the writer. */
  extMin: Vec3;
  extMax: Vec3;
}

/** Julian day and milliseconds of a date, as DWG time stamps (TIMEBLL). */
function julian(date: Date): [number, number] {
  const ms = date.getTime();
  const day = Math.floor(ms / 86_400_000);
  return [day + 2_440_588, ms - day * 86_400_000];
}

export function writeHeaderVars(out: HeaderStreams, header: Header, h: HeaderHandles, ctx: HeaderContext): void {
  const w = out.d;
  const v = header.vars;
  const num = (name: string, def: number): number => {
    const x = v[name];
    return typeof x === 'number' && Number.isFinite(x) ? x : def;
  };
  const flag = (name: string, def: boolean): boolean => {
    const x = v[name];
    return typeof x === 'number' ? x !== 0 : typeof x === 'boolean' ? x : def;
  };
  const pt = (name: string, def: Vec3): Vec3 => {
    const x = v[name];
    return Array.isArray(x) && x.every((c) => Number.isFinite(c)) ? [x[0] ?? 0, x[1] ?? 0, x[2] ?? 0] : def;
  };
  const t = (value: string): void => {
    if (out.s) out.s.tu(value);
    else w.tv(ctx.text(value));
  };
  const str = (name: string): void => {
    const x = v[name];
    t(typeof x === 'string' ? x : '');
  };
  const y = ctx.year;
  const r2004 = y >= 2004;
  const hard = (handle: number): void => void out.h.h(Ref.HardPointer, handle);
  const owner = (handle: number): void => void out.h.h(Ref.HardOwner, handle);
  const cmcAci = (c: number): void => {
    if (r2004)
      w.bs(0)
        .bl(c === 256 ? 0xc0000000 : c === 0 ? 0xc1000000 : (0xc3000000 | (c & 0xff)) >>> 0)
        .rc(0);
    else w.bs(c);
  };

  if (y >= 2013) w.bll(0); // REQUIREDVERSIONS
  // Unknown values AutoCAD always writes.
  w.bd(412148564080.0).bd(1).bd(1).bd(1);
  t('m');
  t('');
  t('');
  t('');
  w.bl(24).bl(0);
  if (!r2004) hard(0); // current viewport entity header
  w.b(flag('$DIMASO', true)).b(flag('$DIMSHO', true));
  w.b(flag('$PLINEGEN', false)).b(flag('$ORTHOMODE', false)).b(flag('$REGENMODE', true)).b(flag('$FILLMODE', true));
  w.b(flag('$QTEXTMODE', false))
    .b(num('$PSLTSCALE', header.psltscale ?? 1) !== 0)
    .b(flag('$LIMCHECK', false));
  if (r2004) w.b(0);
  w.b(flag('$USRTIMER', true)).b(flag('$SKPOLY', false)).b(flag('$ANGDIR', false)).b(flag('$SPLFRAME', false));
  w.b(flag('$MIRRTEXT', false)).b(flag('$WORLDVIEW', true));
  w.b(flag('$TILEMODE', true)).b(flag('$PLIMCHECK', false)).b(flag('$VISRETAIN', true));
  w.b(flag('$DISPSILH', false)).b(0); // PELLIPSE
  w.bs(num('$PROXYGRAPHICS', 1));
  w.bs(num('$TREEDEPTH', 3020)).bs(num('$LUNITS', 2)).bs(num('$LUPREC', 4)).bs(num('$AUNITS', 0)).bs(num('$AUPREC', 0));
  w.bs(num('$ATTMODE', 1)).bs(header.pdmode ?? num('$PDMODE', 0));
  if (r2004) w.bl(0).bl(0).bl(0);
  for (let i = 1; i <= 5; i++) w.bs(num(`$USERI${i}`, 0));
  w.bs(num('$SPLINESEGS', 8)).bs(num('$SURFU', 6)).bs(num('$SURFV', 6)).bs(num('$SURFTYPE', 6));
  w.bs(num('$SURFTAB1', 6)).bs(num('$SURFTAB2', 6)).bs(num('$SPLINETYPE', 6)).bs(num('$SHADEDGE', 3));
  w.bs(num('$SHADEDIF', 70)).bs(num('$UNITMODE', 0)).bs(num('$MAXACTVP', 64)).bs(num('$ISOLINES', 4));
  w.bs(num('$CMLJUST', 0)).bs(num('$TEXTQLTY', 50));
  w.bd(header.ltscale ?? num('$LTSCALE', 1))
    .bd(header.textsize ?? num('$TEXTSIZE', 2.5))
    .bd(num('$TRACEWID', 1));
  w.bd(num('$SKETCHINC', 1)).bd(num('$FILLETRAD', 0)).bd(num('$THICKNESS', 0));
  w.bd((num('$ANGBASE', 0) * Math.PI) / 180)
    .bd(header.pdsize ?? num('$PDSIZE', 0))
    .bd(num('$PLINEWID', 0));
  for (let i = 1; i <= 5; i++) w.bd(num(`$USERR${i}`, 0));
  w.bd(num('$CHAMFERA', 0)).bd(num('$CHAMFERB', 0)).bd(num('$CHAMFERC', 0)).bd(num('$CHAMFERD', 0));
  w.bd(num('$FACETRES', 0.5)).bd(num('$CMLSCALE', 1)).bd(num('$CELTSCALE', 1));
  str('$MENU');
  const [day, ms] = julian(new Date());
  w.bl(day).bl(ms).bl(day).bl(ms); // TDCREATE, TDUPDATE
  if (r2004) w.bl(0).bl(0).bl(0);
  w.bl(0).bl(0).bl(0).bl(0); // TDINDWG, TDUSRTIMER
  // CECOLOR: ByLayer (R2004+: index 0, the colour method in the RGB word).
  if (r2004) w.bs(0).bl(0xc0000000).rc(0);
  else w.bs(256);
  w.h(Ref.Plain, h.handseed);
  hard(h.clayer);
  hard(h.textstyle);
  hard(h.celtype);
  if (y >= 2007) hard(0); // CMATERIAL
  hard(h.dimstyle);
  hard(h.cmlstyle);
  w.bd(num('$PSVPSCALE', 0));
  // Paper space.
  w.bd3(pt('$PINSBASE', [0, 0, 0]))
    .bd3(pt('$PEXTMIN', [1e20, 1e20, 1e20]))
    .bd3(pt('$PEXTMAX', [-1e20, -1e20, -1e20]));
  w.rd2(pt('$PLIMMIN', [0, 0, 0]))
    .rd2(pt('$PLIMMAX', [420, 297, 0]))
    .bd(num('$PELEVATION', 0));
  w.bd3(pt('$PUCSORG', [0, 0, 0]))
    .bd3(pt('$PUCSXDIR', [1, 0, 0]))
    .bd3(pt('$PUCSYDIR', [0, 1, 0]));
  hard(0); // PUCSNAME
  hard(0); // PUCSORTHOREF
  w.bs(0); // PUCSORTHOVIEW
  hard(0); // PUCSBASE
  for (let i = 0; i < 6; i++) w.bd3([0, 0, 0]); // PUCSORGTOP .. PUCSORGBACK
  // Model space.
  w.bd3(pt('$INSBASE', [0, 0, 0]))
    .bd3(ctx.extMin)
    .bd3(ctx.extMax);
  w.rd2(header.limMin ?? [0, 0, 0])
    .rd2(header.limMax ?? [420, 297, 0])
    .bd(num('$ELEVATION', 0));
  w.bd3(pt('$UCSORG', [0, 0, 0]))
    .bd3(pt('$UCSXDIR', [1, 0, 0]))
    .bd3(pt('$UCSYDIR', [0, 1, 0]));
  hard(0); // UCSNAME
  hard(0); // UCSORTHOREF
  w.bs(0); // UCSORTHOVIEW
  hard(0); // UCSBASE
  for (let i = 0; i < 6; i++) w.bd3([0, 0, 0]); // UCSORGTOP .. UCSORGBACK
  str('$DIMPOST');
  str('$DIMAPOST');
  w.bd(header.dimscale ?? num('$DIMSCALE', 1))
    .bd(num('$DIMASZ', 2.5))
    .bd(num('$DIMEXO', 0.625))
    .bd(num('$DIMDLI', 3.75));
  w.bd(num('$DIMEXE', 1.25)).bd(num('$DIMRND', 0)).bd(num('$DIMDLE', 0)).bd(num('$DIMTP', 0)).bd(num('$DIMTM', 0));
  if (y >= 2007) {
    w.bd(num('$DIMFXL', 1))
      .bd(num('$DIMJOGANG', Math.PI / 4))
      .bs(num('$DIMTFILL', 0));
    cmcAci(0); // DIMTFILLCLR ByBlock
  }
  w.b(flag('$DIMTOL', false)).b(flag('$DIMLIM', false)).b(flag('$DIMTIH', false)).b(flag('$DIMTOH', false));
  w.b(flag('$DIMSE1', false)).b(flag('$DIMSE2', false));
  w.bs(num('$DIMTAD', 1)).bs(num('$DIMZIN', 8)).bs(num('$DIMAZIN', 0));
  if (y >= 2007) w.bs(num('$DIMARCSYM', 0));
  w.bd(num('$DIMTXT', 2.5)).bd(num('$DIMCEN', 2.5)).bd(num('$DIMTSZ', 0)).bd(num('$DIMALTF', 0.03937007874));
  w.bd(num('$DIMLFAC', 1)).bd(num('$DIMTVP', 0)).bd(num('$DIMTFAC', 1)).bd(num('$DIMGAP', 0.625));
  w.bd(num('$DIMALTRND', 0)).b(flag('$DIMALT', false)).bs(num('$DIMALTD', 3)).b(flag('$DIMTOFL', true));
  w.b(flag('$DIMSAH', false)).b(flag('$DIMTIX', false)).b(flag('$DIMSOXD', false));
  const cmc = (name: string): void => cmcAci(num(name, 0));
  cmc('$DIMCLRD');
  cmc('$DIMCLRE');
  cmc('$DIMCLRT');
  w.bs(num('$DIMADEC', 0)).bs(num('$DIMDEC', 2)).bs(num('$DIMTDEC', 2)).bs(num('$DIMALTU', 2)).bs(num('$DIMALTTD', 3));
  w.bs(num('$DIMAUNIT', 0)).bs(num('$DIMFRAC', 0)).bs(num('$DIMLUNIT', 2)).bs(num('$DIMDSEP', 46)).bs(num('$DIMTMOVE', 0));
  w.bs(num('$DIMJUST', 0)).b(flag('$DIMSD1', false)).b(flag('$DIMSD2', false)).bs(num('$DIMTOLJ', 0)).bs(num('$DIMTZIN', 8));
  w.bs(num('$DIMALTZ', 0)).bs(num('$DIMALTTZ', 0)).b(flag('$DIMUPT', false)).bs(num('$DIMATFIT', 3));
  if (y >= 2007) w.b(flag('$DIMFXLON', false));
  if (y >= 2010) {
    w.b(flag('$DIMTXTDIRECTION', false)).bd(num('$DIMALTMZF', 100));
    str('$DIMALTMZS');
    w.bd(num('$DIMMZF', 100));
    str('$DIMMZS');
  }
  hard(h.dimtxsty);
  hard(0); // DIMLDRBLK
  hard(0); // DIMBLK
  hard(0); // DIMBLK1
  hard(0); // DIMBLK2
  if (y >= 2007) {
    hard(0);
    hard(0);
    hard(0);
  }
  w.bs(num('$DIMLWD', -2)).bs(num('$DIMLWE', -2));
  owner(h.blockControl);
  owner(h.layerControl);
  owner(h.styleControl);
  owner(h.ltypeControl);
  owner(h.viewControl);
  owner(h.ucsControl);
  owner(h.vportControl);
  owner(h.appidControl);
  owner(h.dimstyleControl);
  if (!r2004) owner(h.vxControl);
  hard(h.groupDict);
  hard(h.mlinestyleDict);
  owner(h.namedObjects);
  w.bs(1).bs(70); // TSTACKALIGN, TSTACKSIZE
  str('$HYPERLINKBASE');
  str('$STYLESHEET');
  hard(h.layoutDict);
  hard(h.plotSettingsDict);
  hard(h.plotStyleDict);
  if (r2004) {
    hard(h.materialDict);
    hard(h.colorDict);
  }
  if (y >= 2007) hard(0); // visual styles dictionary
  if (y >= 2013) hard(0); // AutoCAD 2013+ writes one more dictionary handle, null here
  // CELWEIGHT (ByLayer = 29), ENDCAPS, JOINSTYLE, LWDISPLAY off, XEDIT on, EXTNAMES on.
  const celweight = 29;
  w.bl(celweight | 0x200 | 0x800);
  w.bs(header.insUnits ?? num('$INSUNITS', 4)).bs(0); // INSUNITS, CEPSNTYPE ByLayer
  t(guid()); // FINGERPRINTGUID
  t(guid()); // VERSIONGUID
  if (r2004) {
    w.rc(num('$SORTENTS', 127)).rc(num('$INDEXCTL', 0)).rc(num('$HIDETEXT', 1)).rc(num('$XCLIPFRAME', 0));
    w.rc(num('$DIMASSOC', 2)).rc(num('$HALOGAP', 0)).bs(num('$OBSCOLOR', 257)).bs(num('$INTERSECTIONCOLOR', 257));
    w.rc(num('$OBSLTYPE', 0)).rc(num('$INTERSECTIONDISPLAY', 0));
    str('$PROJECTNAME');
  }
  hard(h.paperSpace);
  hard(h.modelSpace);
  hard(h.byLayer);
  hard(h.byBlock);
  hard(h.continuous);
  if (y >= 2007) {
    // Cameras, solids history, lofts, geographic location (AutoCAD's defaults: San Francisco,
    // UTC-8), lights, underlay frames, interference colour, shadows. AutoCAD writes nothing after
    // them (its files end the data here, unlike R2000/R2004).
    const metric = (header.measurement ?? num('$MEASUREMENT', 1)) === 1;
    w.b(flag('$CAMERADISPLAY', false)).bl(0).bl(10).bd(1);
    w.bd(num('$STEPSPERSEC', 2)).bd(num('$STEPSIZE', 6)).bd(num('$3DDWFPREC', 2)).bd(num('$LENSLENGTH', 50)).bd(num('$CAMERAHEIGHT', 0));
    w.rc(num('$SOLIDHIST', 0)).rc(num('$SHOWHIST', 1));
    w.bd(num('$PSOLWIDTH', metric ? 5 : 0.25)).bd(num('$PSOLHEIGHT', metric ? 80 : 4));
    w.bd(num('$LOFTANG1', Math.PI / 2))
      .bd(num('$LOFTANG2', Math.PI / 2))
      .bd(num('$LOFTMAG1', 0))
      .bd(num('$LOFTMAG2', 0));
    w.bs(num('$LOFTPARAM', 7)).rc(num('$LOFTNORMALS', 1));
    w.bd(num('$LATITUDE', 37.795)).bd(num('$LONGITUDE', -122.394)).bd(num('$NORTHDIRECTION', 0)).bl(num('$TIMEZONE', -8000));
    w.rc(num('$LIGHTGLYPHDISPLAY', 1)).rc(num('$TILEMODELIGHTSYNCH', 1)).rc(num('$DWFFRAME', 2)).rc(num('$DGNFRAME', 0));
    w.b(flag('$REALWORLDSCALE', true));
    cmcAci(num('$INTERFERECOLOR', 1));
    hard(0); // INTERFEREOBJVS
    hard(0); // INTERFEREVPVS
    hard(0); // DRAGVS
    w.rc(num('$CSHADOW', 0)).bd(num('$SHADOWPLANELOCATION', 0));
    return;
  }
  // Four unknown shorts (R14+), then the R2004 tail.
  w.bs(-1).bs(-1).bs(-1).bs(-1);
  if (r2004) w.bl(0).bl(0).b(0);
}

/** A random GUID in AutoCAD's braced upper-case form. */
function guid(): string {
  const hex = (n: number): string =>
    Array.from({ length: n }, () =>
      Math.floor(Math.random() * 16)
        .toString(16)
        .toUpperCase(),
    ).join('');
  return `{${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}}`;
}
