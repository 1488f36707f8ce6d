/** MULTILEADER (MLEADER in some writers): the context data, then the entity-level groups. */
import type { Color, MLeaderEntity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk, RAD2DEG } from './base';

/** An MLEADER raw colour (0xC0 ByLayer, 0xC1 ByBlock, 0xC2 RGB, 0xC3 ACI) → a model colour; undefined for others (window background). */
function mleaderColor(raw: number): Color | undefined {
  const kind = (raw >>> 24) & 0xff;
  if (kind === 0xc0) return { aci: 256 };
  if (kind === 0xc1) return { aci: 0 };
  if (kind === 0xc2) return { rgb: raw & 0xffffff };
  if (kind === 0xc3) return { aci: raw & 0xff };
  return undefined;
}

/**
 * MULTILEADER: the context data (CONTEXT_DATA{ ... LEADER{ ... LEADER_LINE{ ... } } }) holds the
 * geometry as laid out (text location, scaled heights, leader vertices); the entity-level groups
 * after it the leader line properties, arrowheads, text frame and block attribute values.
 */
export function mleader(r: DxfRecord): MLeaderEntity {
  const { codes, vals } = r;
  const e: MLeaderEntity = mk(r, { type: 'MULTILEADER', leaders: [] });
  let depth: 'none' | 'context' | 'leader' | 'line' = 'none';
  let afterContext = false;
  let leader: MLeaderEntity['leaders'][number] | undefined;
  let line: MLeaderEntity['leaders'][number]['lines'][number] | undefined;
  let hasBlock = false;
  let bgFill = false;
  let bgColor: Color | undefined;
  let bgScale = 1.5;
  let bgWindow = false;
  let ctxBlockColor: Color | undefined;
  let ctxBlockScale: Vec3 | undefined;
  let ctxBlockRotation: number | undefined;
  let ctxTextColor: Color | undefined;
  let ctxTextStyle: string | undefined;
  let ctxLeft: number | undefined;
  let ctxRight: number | undefined;
  let ctxBlock: string | undefined;
  let arrowIndex = 0;
  const n = (i: number): number => asNum(vals[i]);
  const s = (i: number): string => asStr(vals[i]);
  const lastAttr = (): { index: number; width: number; text: string } | undefined => e.blockAttributes?.[e.blockAttributes.length - 1];
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (depth === 'none') {
      if (c === 300 && s(i) === 'CONTEXT_DATA{') {
        depth = 'context';
        continue;
      }
      if (!afterContext) continue;
      switch (c) {
        case 340:
          if (e.styleHandle === undefined) e.styleHandle = s(i);
          break;
        case 170:
          e.leaderType = n(i);
          break;
        case 91:
          e.leaderColor = mleaderColor(n(i));
          break;
        case 341:
          e.leaderLinetypeHandle = s(i);
          break;
        case 171:
          e.leaderLineweight = n(i);
          break;
        case 290:
          e.hasLanding = n(i) !== 0;
          break;
        case 291:
          e.hasDogleg = n(i) !== 0;
          break;
        case 342:
          e.arrowHandle = s(i);
          break;
        case 42:
          if (e.arrowSize === undefined) e.arrowSize = n(i);
          break;
        case 172:
          e.contentType = n(i);
          break;
        case 343:
          ctxTextStyle ??= s(i);
          break;
        case 173:
          e.textLeftAttachment = n(i);
          break;
        case 95:
          e.textRightAttachment = n(i);
          break;
        case 92:
          ctxTextColor ??= mleaderColor(n(i));
          break;
        case 292:
          e.textFrame = n(i) !== 0;
          break;
        case 344:
          if (e.blockHandle === undefined) e.blockHandle = s(i);
          break;
        case 93:
          ctxBlockColor ??= mleaderColor(n(i));
          break;
        case 10:
          ctxBlockScale ??= r.ptAt(i, 1);
          break;
        case 43:
          ctxBlockRotation ??= n(i) * RAD2DEG;
          break;
        case 94:
          arrowIndex = n(i);
          break;
        case 345:
          (e.arrowHeads ??= []).push({ index: arrowIndex, handle: s(i) });
          break;
        case 330:
          (e.blockAttributes ??= []).push({ handle: s(i), index: 0, width: 0, text: '' });
          break;
        case 177: {
          const a = lastAttr();
          if (a) a.index = n(i);
          break;
        }
        case 44: {
          const a = lastAttr();
          if (a) a.width = n(i);
          break;
        }
        case 302: {
          const a = lastAttr();
          if (a) a.text = s(i);
          break;
        }
        case 179:
          e.textAttachmentPoint = n(i);
          break;
        case 271:
          e.textAttachmentDirection = n(i);
          break;
        case 272:
          e.textBottomAttachment ??= n(i);
          break;
        case 273:
          e.textTopAttachment ??= n(i);
          break;
      }
      continue;
    }
    if (depth === 'line') {
      if (c === 305) depth = 'leader';
      else if (!line) continue;
      else if (c === 10) line.vertices.push(r.ptAt(i));
      else if (c === 91) line.index = n(i);
      else if (c === 92) {
        // ByBlock (the default) = the leader's colour.
        const col = mleaderColor(n(i));
        if (col && col.aci !== 0) line.color = col;
      }
      continue;
    }
    if (depth === 'leader') {
      if (c === 303) depth = 'context';
      else if (c === 304) {
        depth = 'line';
        line = { vertices: [] };
        leader?.lines.push(line);
      } else if (!leader) continue;
      else if (c === 10) leader.lastPoint = r.ptAt(i);
      else if (c === 11) leader.doglegVector = r.ptAt(i);
      else if (c === 40) leader.doglegLength = n(i);
      else if (c === 271) leader.attachmentDirection = n(i);
      continue;
    }
    // Context data.
    switch (c) {
      case 301:
        depth = 'none';
        afterContext = true;
        break;
      case 302:
        depth = 'leader';
        leader = { doglegLength: 0, lines: [] };
        e.leaders.push(leader);
        break;
      case 40:
        e.contentScale = n(i);
        break;
      case 10:
        e.contentBase = r.ptAt(i);
        break;
      case 41:
        e.textHeight = n(i);
        break;
      case 140:
        e.arrowSize = n(i);
        break;
      case 145:
        e.landingGap = n(i);
        break;
      case 174:
        ctxLeft = n(i);
        break;
      case 175:
        ctxRight = n(i);
        break;
      case 304:
        e.text = s(i);
        break;
      case 11:
        e.textNormal = r.ptAt(i, 1);
        break;
      case 340:
        ctxTextStyle = s(i);
        break;
      case 12:
        e.textPosition = r.ptAt(i);
        break;
      case 13:
        e.textDirection = r.ptAt(i);
        break;
      case 43:
        e.textWidth = n(i);
        break;
      case 44:
        e.textDefinedHeight = n(i);
        break;
      case 45:
        e.textLineSpacingFactor = n(i);
        break;
      case 170:
        e.textLineSpacingStyle = n(i);
        break;
      case 90:
        ctxTextColor = mleaderColor(n(i));
        break;
      case 171:
        e.textAlignment = n(i);
        break;
      case 172:
        e.textFlow = n(i);
        break;
      case 91:
        bgColor = mleaderColor(n(i));
        break;
      case 141:
        bgScale = n(i);
        break;
      case 291:
        bgWindow = n(i) !== 0;
        break;
      case 292:
        bgFill = n(i) !== 0;
        break;
      case 296:
        hasBlock = n(i) !== 0;
        break;
      case 341:
        ctxBlock = s(i);
        break;
      case 14:
        e.blockNormal = r.ptAt(i, 1);
        break;
      case 15:
        e.blockPosition = r.ptAt(i);
        break;
      case 16:
        ctxBlockScale = r.ptAt(i, 1);
        break;
      case 46:
        ctxBlockRotation = n(i) * RAD2DEG;
        break;
      case 93:
        ctxBlockColor = mleaderColor(n(i));
        break;
      case 272:
        e.textBottomAttachment = n(i);
        break;
      case 273:
        e.textTopAttachment = n(i);
        break;
    }
  }
  if (ctxBlock !== undefined) e.blockHandle = ctxBlock;
  else if (!hasBlock && e.contentType !== 1 && e.blockHandle !== undefined && e.text) delete e.blockHandle;
  if (ctxTextStyle !== undefined) e.textStyleHandle = ctxTextStyle;
  if (ctxTextColor !== undefined) e.textColor = ctxTextColor;
  if (ctxBlockColor !== undefined) e.blockColor = ctxBlockColor;
  if (ctxBlockScale !== undefined) e.blockScale = ctxBlockScale;
  if (ctxBlockRotation !== undefined) e.blockRotation = ctxBlockRotation;
  if (ctxLeft !== undefined) e.textLeftAttachment = ctxLeft;
  if (ctxRight !== undefined) e.textRightAttachment = ctxRight;
  if (bgFill)
    e.textBackground = { ...(bgColor ? { color: bgColor } : {}), scale: bgScale > 0 ? bgScale : 1.5, useWindowColor: bgWindow || !bgColor };
  return e;
}
