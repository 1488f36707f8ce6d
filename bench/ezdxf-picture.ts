// ezdxf's pictures for the benchmarks: running its drawing scripts (bench/ezdxf-draw.py,
// bench/saveas-ezdxf-draw.py) with matplotlib's Agg backend, and decoding a PNG for the ink comparison.
import { existsSync, readFileSync } from 'node:fs';
import type { RgbaImage } from '@xcad/cad/testing';
import { runProcess } from './run-process';

const PYTHON = '/usr/bin/python3';

/** Decodes a PNG file to RGBA; null when it is missing or not a picture. */
export async function decodePng(file: string): Promise<RgbaImage | null> {
  if (!existsSync(file)) return null;
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  try {
    const img = await loadImage(readFileSync(file));
    const canvas = createCanvas(img.width, img.height);
    const g = canvas.getContext('2d');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, img.width, img.height).data;
    return { width: img.width, height: img.height, data };
  } catch {
    return null;
  }
}

/**
 * Runs a Python script (argv after the interpreter, matplotlib's Agg backend) to its end: its
 * stdout, and the error line when it fails or passes `timeoutMs` (its process group is killed).
 */
export async function runPython(argv: string[], timeoutMs: number): Promise<{ stdout: string; error: string | null }> {
  const r = await runProcess(PYTHON, argv, { timeoutMs, env: { ...process.env, MPLBACKEND: 'Agg' }, stdout: true });
  return { stdout: r.stdout, error: r.error ?? null };
}
