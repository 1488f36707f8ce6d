/** MULTILEADER: its annotation context (leaders, text or block content), then the entity-level overrides. */
import type { Color, MLeaderEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
import { hex, RAD2DEG } from '../access';
import { heapColor } from './colors';
import { normalOr, type EntityContext, type Owner } from './context';

export function mleader(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): MLeaderEntity {
  const a = r.a;
  const e: MLeaderEntity = { ...r.base(obj, tio, type, owner), type: 'MULTILEADER', leaders: [] };
  const style = a.refHandle(a.ptr(tio, type, 'mleaderstyle'));
  if (style) e.styleHandle = hex(style);
  const ctxOff = a.off(tio, type, 'ctx');
  if (ctxOff < 0) return e;
  const ctx = tio + ctxOff;
  const C = 'MLEADER_AnnotContext';
  const at = (sub: string, f: string, base: number): number => {
    const o = a.subOff(sub, f);
    return o < 0 ? -1 : base + o;
  };
  const num = (addr: number, kind: 'd' | 'u32' | 'u8'): number =>
    addr < 0 ? 0 : kind === 'd' ? a.f64At(addr) : kind === 'u32' ? a.u32At(addr) : a.u8At(addr);
  /** A CMC colour struct at `addr` (the layout the entity colour probe confirmed). */
  const cmcAt = (addr: number): Color =>
    heapColor(a.i16At(addr), a.u32At(addr + 8), a.u32At(addr + 28), a.u8At(addr + 32), a.u8At(addr + 33)).color;
  const nLeaders = num(at(C, 'num_leaders', ctx), 'u32');
  const leadersPtr = num(at(C, 'leaders', ctx), 'u32');
  const nodeSize = a.subSize('LEADER_Node');
  const lineSize = a.subSize('LEADER_Line');
  if (leadersPtr && nodeSize > 0)
    for (let i = 0; i < Math.min(nLeaders, 1000); i++) {
      const node = leadersPtr + i * nodeSize;
      const leader: MLeaderEntity['leaders'][number] = { doglegLength: num(at('LEADER_Node', 'dogleg_length', node), 'd'), lines: [] };
      const attach = at('LEADER_Node', 'attach_dir', node);
      if (attach >= 0) leader.attachmentDirection = a.u16At(attach);
      if (num(at('LEADER_Node', 'has_lastleaderlinepoint', node), 'u8'))
        leader.lastPoint = a.p3At(at('LEADER_Node', 'lastleaderlinepoint', node));
      if (num(at('LEADER_Node', 'has_dogleg', node), 'u8')) leader.doglegVector = a.p3At(at('LEADER_Node', 'dogleg_vector', node));
      const nLines = num(at('LEADER_Node', 'num_lines', node), 'u32');
      const linesPtr = num(at('LEADER_Node', 'lines', node), 'u32');
      if (linesPtr && lineSize > 0)
        for (let j = 0; j < Math.min(nLines, 1000); j++) {
          const line = linesPtr + j * lineSize;
          const np = num(at('LEADER_Line', 'num_points', line), 'u32');
          const pts = num(at('LEADER_Line', 'points', line), 'u32');
          const vertices: Vec3[] = [];
          if (pts) for (let k = 0; k < Math.min(np, 10_000); k++) vertices.push(a.p3At(pts + 24 * k));
          const ml: MLeaderEntity['leaders'][number]['lines'][number] = { vertices };
          const index = at('LEADER_Line', 'line_index', line);
          if (index >= 0) ml.index = a.u32At(index);
          const lc = at('LEADER_Line', 'color', line);
          if (lc >= 0) {
            // ByBlock (the default) = the leader's colour.
            const c = cmcAt(lc);
            if (c.aci !== 0 || c.rgb !== undefined) ml.color = c;
          }
          leader.lines.push(ml);
        }
      e.leaders.push(leader);
    }
  const textHeight = at(C, 'text_height', ctx);
  if (textHeight >= 0) e.textHeight = a.f64At(textHeight);
  const arrow = at(C, 'arrow_size', ctx);
  if (arrow >= 0) e.arrowSize = a.f64At(arrow);
  const scale = at(C, 'scale_factor', ctx);
  if (scale >= 0) e.contentScale = a.f64At(scale);
  const base = at(C, 'content_base', ctx);
  if (base >= 0) e.contentBase = a.p3At(base);
  const gap = at(C, 'landing_gap', ctx);
  if (gap >= 0) e.landingGap = a.f64At(gap);
  const left = at(C, 'text_left', ctx);
  if (left >= 0) e.textLeftAttachment = a.u16At(left);
  const right = at(C, 'text_right', ctx);
  if (right >= 0) e.textRightAttachment = a.u16At(right);
  const top = at(C, 'text_top', ctx);
  if (top >= 0) e.textTopAttachment = a.u16At(top);
  const bottom = at(C, 'text_bottom', ctx);
  if (bottom >= 0) e.textBottomAttachment = a.u16At(bottom);
  const content = at(C, 'content', ctx);
  if (content >= 0 && num(at(C, 'has_content_txt', ctx), 'u8')) {
    const M = 'MLEADER_Content_MText';
    const textPtr = at(M, 'default_text', content);
    if (textPtr >= 0) e.text = a.strAt(a.u32At(textPtr));
    const loc = at(M, 'location', content);
    if (loc >= 0) e.textPosition = a.p3At(loc);
    const dir = at(M, 'direction', content);
    if (dir >= 0) e.textDirection = a.p3At(dir);
    const width = at(M, 'width', content);
    if (width >= 0) e.textWidth = a.f64At(width);
    const dh = at(M, 'height', content);
    if (dh >= 0) e.textDefinedHeight = a.f64At(dh);
    const normal = at(M, 'normal', content);
    if (normal >= 0) e.textNormal = normalOr(a.p3At(normal));
    const style = at(M, 'style', content);
    const sh = style >= 0 ? a.refHandle(a.u32At(style)) : 0;
    if (sh) e.textStyleHandle = hex(sh);
    const align = at(M, 'alignment', content);
    if (align >= 0) e.textAlignment = a.u16At(align);
    const flow = at(M, 'flow', content);
    if (flow >= 0) e.textFlow = a.u16At(flow);
    const lsf = at(M, 'line_spacing_factor', content);
    if (lsf >= 0) e.textLineSpacingFactor = a.f64At(lsf);
    const lss = at(M, 'line_spacing_style', content);
    if (lss >= 0) e.textLineSpacingStyle = a.u16At(lss);
    const color = at(M, 'color', content);
    if (color >= 0) e.textColor = cmcAt(color);
    // 292 (is_bg_mask_fill): a background mask; 291 (is_bg_fill): in the window colour.
    if (num(at(M, 'is_bg_mask_fill', content), 'u8')) {
      const bgc = at(M, 'bg_color', content);
      const bgs = at(M, 'bg_scale', content);
      const s = bgs >= 0 ? a.f64At(bgs) : 1.5;
      e.textBackground = {
        ...(bgc >= 0 ? { color: cmcAt(bgc) } : {}),
        scale: s > 0 ? s : 1.5,
        useWindowColor: num(at(M, 'is_bg_fill', content), 'u8') !== 0,
      };
    }
  }
  if (content >= 0 && num(at(C, 'has_content_blk', ctx), 'u8')) {
    const B = 'MLEADER_Content_Block';
    const ref = at(B, 'block_table', content);
    const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
    if (h) e.blockHandle = hex(h);
    const loc = at(B, 'location', content);
    if (loc >= 0) e.blockPosition = a.p3At(loc);
    const normal = at(B, 'normal', content);
    if (normal >= 0) e.blockNormal = normalOr(a.p3At(normal));
    const bs = at(B, 'scale', content);
    if (bs >= 0) e.blockScale = a.p3At(bs);
    const rot = at(B, 'rotation', content);
    if (rot >= 0) e.blockRotation = a.f64At(rot) * RAD2DEG;
    const color = at(B, 'color', content);
    if (color >= 0) e.blockColor = cmcAt(color);
  }
  if (e.blockHandle === undefined) {
    const h = a.refHandle(a.ptr(tio, type, 'block_style'));
    if (h) e.blockHandle = hex(h);
  }
  // Entity-level properties (MLEADERSTYLE values or their overrides).
  if (a.off(tio, type, 'type') >= 0) e.leaderType = a.u16(tio, type, 'type');
  for (const f of ['line_color', 'color']) {
    if (a.off(tio, type, f) < 0) continue;
    e.leaderColor = r.structColor(tio, type, f);
    break;
  }
  for (const f of ['line_ltype', 'ltype']) {
    const h = a.off(tio, type, f) >= 0 ? a.refHandle(a.ptr(tio, type, f)) : 0;
    if (!h) continue;
    e.leaderLinetypeHandle = hex(h);
    break;
  }
  for (const f of ['line_linewt', 'linewt']) {
    const o = a.off(tio, type, f);
    if (o < 0) continue;
    e.leaderLineweight = a.i32At(tio + o);
    break;
  }
  if (a.off(tio, type, 'has_landing') >= 0) e.hasLanding = a.u8(tio, type, 'has_landing') !== 0;
  if (a.off(tio, type, 'has_dogleg') >= 0) e.hasDogleg = a.u8(tio, type, 'has_dogleg') !== 0;
  const arrowHandle = a.refHandle(a.ptr(tio, type, 'arrow_handle'));
  if (arrowHandle) e.arrowHandle = hex(arrowHandle);
  if (e.arrowSize === undefined && a.off(tio, type, 'arrow_size') >= 0) e.arrowSize = a.d(tio, type, 'arrow_size');
  if (a.off(tio, type, 'style_content') >= 0) e.contentType = a.u16(tio, type, 'style_content');
  if (e.textStyleHandle === undefined) {
    const h = a.refHandle(a.ptr(tio, type, 'text_style'));
    if (h) e.textStyleHandle = hex(h);
  }
  if (e.textColor === undefined && a.off(tio, type, 'text_color') >= 0) e.textColor = r.structColor(tio, type, 'text_color');
  if (a.off(tio, type, 'has_text_frame') >= 0) e.textFrame = a.u8(tio, type, 'has_text_frame') !== 0;
  if (e.blockColor === undefined && a.off(tio, type, 'block_color') >= 0) e.blockColor = r.structColor(tio, type, 'block_color');
  if (e.blockScale === undefined && a.off(tio, type, 'block_scale') >= 0) e.blockScale = a.p3(tio, type, 'block_scale', [1, 1, 1]);
  if (e.blockRotation === undefined && a.off(tio, type, 'block_rotation') >= 0)
    e.blockRotation = a.d(tio, type, 'block_rotation') * RAD2DEG;
  if (a.off(tio, type, 'justification') >= 0) e.textAttachmentPoint = a.u16(tio, type, 'justification');
  if (a.off(tio, type, 'attach_dir') >= 0) e.textAttachmentDirection = a.u16(tio, type, 'attach_dir');
  const nArrows = a.u32(tio, type, 'num_arrowheads');
  const arrows = a.ptr(tio, type, 'arrowheads');
  const arrowSize = a.subSize('LEADER_ArrowHead');
  if (arrows && arrowSize > 0)
    for (let i = 0; i < Math.min(nArrows, 1000); i++) {
      const p = arrows + i * arrowSize;
      const ref = at('LEADER_ArrowHead', 'arrowhead', p);
      const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
      if (h) (e.arrowHeads ??= []).push({ index: num(at('LEADER_ArrowHead', 'is_default', p), 'u8'), handle: hex(h) });
    }
  const nLabels = a.u32(tio, type, 'num_blocklabels');
  const labels = a.ptr(tio, type, 'blocklabels');
  const labelSize = a.subSize('LEADER_BlockLabel');
  if (labels && labelSize > 0)
    for (let i = 0; i < Math.min(nLabels, 1000); i++) {
      const p = labels + i * labelSize;
      const ref = at('LEADER_BlockLabel', 'attdef', p);
      const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
      if (!h) continue;
      const text = at('LEADER_BlockLabel', 'label_text', p);
      const index = at('LEADER_BlockLabel', 'ui_index', p);
      (e.blockAttributes ??= []).push({
        handle: hex(h),
        index: index >= 0 ? a.u16At(index) : 0,
        width: num(at('LEADER_BlockLabel', 'width', p), 'd'),
        text: text >= 0 ? a.strAt(a.u32At(text)) : '',
      });
    }
  return e;
}
