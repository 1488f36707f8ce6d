import { readFileSync } from 'node:fs';
import { compoundStreams } from '../packages/cad/src/codec/ole';
const b = readFileSync(process.argv[2]!);
const s = compoundStreams(new Uint8Array(b.buffer, b.byteOffset + 128, b.length - 128));
if (!s) console.log('no cfb');
else for (const [n, d] of s) console.log(JSON.stringify(n), d.length, Buffer.from(d.subarray(0, 48)).toString('hex'));
