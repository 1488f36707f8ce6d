// How much drawing a device can take in the browser (decision 0021: "large files open and stay smooth;
// memory stays bounded; a file too large for the device is said so"). Measured on this kind of
// machine: the 23 MB DXF of the corpus peaks at about 250 MB in the build worker and leaves
// 15 MB of buffers; LibreDWG needs about 60 times a DWG's size (a 7 MB DWG: 450 MB).

const MB = 1024 * 1024;

export interface DeviceInfo {
  /** navigator.deviceMemory (GiB, Chrome only, capped at 8), when known. */
  memoryGb?: number;
  /** A phone or tablet (coarse pointer, small screen). */
  isMobile: boolean;
}

export interface Budget {
  /** Largest DXF opened in the browser. */
  maxDxfBytes: number;
  /** Largest DWG opened in the browser. */
  maxDwgBytes: number;
  /** The builder stops adding geometry after this many points (the rest is reported as cut off). */
  maxPoints: number;
}

const clamp = (value: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, value));

export function budgetOf(device: DeviceInfo): Budget {
  const known = device.memoryGb !== undefined && Number.isFinite(device.memoryGb) && device.memoryGb > 0;
  // Browsers that do not say (Firefox, Safari): a desktop as a roomy machine, a phone as a 4 GB one.
  const gb = known ? (device.memoryGb as number) : device.isMobile ? 4 : 8;
  return {
    maxDxfBytes: Math.round(clamp(gb * 30, 30, 200) * MB),
    maxDwgBytes: Math.round(clamp(gb * 4, 6, 32) * MB),
    maxPoints: Math.round(clamp(gb * 4, 4, 30) * 1_000_000),
  };
}

export type DrawingKind = 'dwg' | 'dxf';

/**
 * DWG by its signature (`AC1015`, `AC1032`, the pre-R13 `AC1.40`, `AC2.10`...), else DXF: the DXF
 * reader then tells whether the bytes are a drawing at all. The name does not decide: drawings
 * downloaded from elsewhere often carry the wrong extension.
 */
export function kindOf(head: Uint8Array): DrawingKind {
  if (head.length < 6 || head[0] !== 0x41 || head[1] !== 0x43) return 'dxf';
  for (let i = 2; i < 6; i++) {
    const c = head[i] as number;
    const ok = (c >= 0x30 && c <= 0x39) || c === 0x2e;
    if (!ok) return 'dxf';
  }
  return 'dwg';
}

/** Too big for this device, or null. */
export function sizeProblemOf(size: number, kind: DrawingKind, budget: Budget): { maxBytes: number } | null {
  const maxBytes = kind === 'dwg' ? budget.maxDwgBytes : budget.maxDxfBytes;
  return size > maxBytes ? { maxBytes } : null;
}

/** The device as the browser describes it. */
export function currentDevice(): DeviceInfo {
  const nav = navigator as Navigator & { deviceMemory?: number };
  const coarse = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
  return {
    ...(typeof nav.deviceMemory === 'number' ? { memoryGb: nav.deviceMemory } : {}),
    isMobile: coarse && Math.min(window.screen.width, window.screen.height) < 820,
  };
}
