// ezdxf's pictures for the benchmarks: running its drawing scripts (bench/ezdxf-draw.py,
// bench/saveas-ezdxf-draw.py) with matplotlib's Agg backend, and decoding a PNG for the ink comparison.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { RgbaImage } from '@xcad/cad/testing';

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
export function runPython(argv: string[], timeoutMs: number): Promise<{ stdout: string; error: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, argv, { env: { ...process.env, MPLBACKEND: 'Agg' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = stderr.trim().split('\n').pop() ?? '';
      resolve({
        stdout,
        error: timedOut ? `killed after ${timeoutMs / 1000} s` : code !== 0 ? `exit ${code}: ${last.slice(0, 160)}` : null,
      });
    });
  });
}
