/** VIEWPORT: a paper-space window on the model. */
import type { ViewportEntity } from '@xcad/cad/model';
import { hex, RAD2DEG } from '../access';
import { normalOr, type EntityContext, type Owner } from './context';

export function viewport(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): ViewportEntity {
  const a = r.a;
  const height = a.d(tio, type, 'height');
  const viewHeight = a.d(tio, type, 'VIEWSIZE') || height;
  const flags = a.u32(tio, type, 'status_flag');
  // DWG keeps no stack order (DXF 68) since R2000: 0x20000 in the flags is 'off'; the layout
  // pass numbers the viewports that are on.
  const on = !(flags & 0x20000);
  const status = on ? a.i16(tio, type, 'on_off') || 1 : 0;
  const vc = a.p2(tio, type, 'VIEWCTR');
  const frozenLayers: string[] = [];
  const nf = a.u32(tio, type, 'num_frozen_layers');
  const fl = a.ptr(tio, type, 'frozen_layers');
  if (fl)
    for (let i = 0; i < Math.min(nf, 100_000); i++) {
      const h = a.refHandle(a.u32At(fl + 4 * i));
      if (h) frozenLayers.push(hex(h));
    }
  const e: ViewportEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'VIEWPORT',
    center: a.p3(tio, type, 'center'),
    width: a.d(tio, type, 'width'),
    height,
    id: a.i16(tio, type, 'id'),
    status,
    on,
    viewCenter: vc,
    viewTarget: a.p3(tio, type, 'view_target'),
    viewDirection: normalOr(a.p3(tio, type, 'VIEWDIR', [0, 0, 1])),
    viewHeight,
    scale: viewHeight ? height / viewHeight : 1,
    twist: a.d(tio, type, 'twist_angle') * RAD2DEG,
    flags,
    frozenLayers,
  };
  const clip = a.refHandle(a.ptr(tio, type, 'clip_boundary'));
  if (clip) e.clipBoundaryHandle = hex(clip);
  return e;
}
