/**
 * The LibreDWG WebAssembly module (@mlightcad/libredwg-web): the subset of its Embind API this
 * reader uses, typed, and the loader. One fresh instance per file: LibreDWG keeps state between
 * reads and a damaged file can leave the heap corrupt, so an instance is never reused. The compiled
 * module is cached, so a new instance costs tens of milliseconds.
 */
import { createModule } from '@mlightcad/libredwg-web';

/** A value read through LibreDWG's dynamic field API. */
export interface DynValue<T> {
  success: boolean;
  data?: T;
  /** Raw bytes of an 8-bit string (pre-R2007 files). */
  bin?: Uint8Array;
  message?: string;
}

export interface DwgColor {
  index: number;
  flag: number;
  rgb: number;
  method: number;
  name?: string;
  book_name?: string;
  alpha_type: number;
  alpha: number;
}

export interface DwgPoint {
  x: number;
  y: number;
  z?: number;
}

export interface Wasm {
  FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void };
  HEAPU8: Uint8Array;
  dwg_read_file(path: string): { error: number; data: number };
  dwg_free(dwg: number): void;
  dwg_get_version_type(dwg: number): number;
  dwg_get_codepage(dwg: number): number;
  dwg_get_num_objects(dwg: number): number;
  dwg_get_object(dwg: number, index: number): number;
  dwg_get_num_classes(dwg: number): number;
  dwg_object_get_supertype(obj: number): number;
  dwg_object_get_fixedtype(obj: number): number;
  dwg_object_get_dxfname(obj: number): string;
  dwg_object_to_entity(obj: number): number;
  dwg_object_to_entity_tio(obj: number): number;
  dwg_object_to_object_tio(obj: number): number;
  dwg_obj_get_handle_value(obj: number): bigint;
  dwg_ref_get_absref(ref: number): number;
  dwg_ref_get_object(ref: number): number;
  dwg_entity_owner(entityTio: number): number;
  get_first_owned_entity(obj: number): number;
  get_next_owned_entity(obj: number, current: number): number;
  get_first_owned_subentity(obj: number): number;
  get_next_owned_subentity(obj: number, current: number): number;
  dwg_object_entity_get_color_object(entity: number): DwgColor;
  /** The common entity graphics (proxy entity graphics) of an entity object; absent in older builds. */
  dwg_entity_get_preview?(obj: number): { data?: Uint8Array | null } | Uint8Array | null;
  dwg_dynapi_header_value(dwg: number, field: string): DynValue<unknown>;
  dwg_dynapi_entity_value(tio: number, field: string): DynValue<unknown>;
  dwg_dynapi_common_value(tio: number, field: string): DynValue<unknown>;
  dwg_dynapi_subclass_value(ptr: number, subclass: string, field: string): DynValue<unknown>;
  dwg_dynapi_entity_field_offset(tio: number, field: string): number;
  dwg_dynapi_subclass_field_offset(subclass: string, field: string): number;
  dwg_dynapi_subclass_size(subclass: string): number;
}

type CreateModule = (options?: unknown) => Promise<unknown>;

/** The slice of the WebAssembly JS API used here (the repo's TypeScript libs do not declare it). */
interface WasmModule {
  readonly __wasmModule?: never;
}
interface WasmInstance {
  readonly exports: object;
}
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
  RuntimeError: new (message?: string) => Error;
}
const WA = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** True for a WebAssembly trap (memory access out of bounds, unreachable, ...): the heap is unusable. */
export function isWasmTrap(e: unknown): boolean {
  return e instanceof WA.RuntimeError;
}

let compiled: Promise<WasmModule | null> | null = null;

/** node-wasm.ts, loaded only under Node. */
interface NodeWasm {
  readWasmBytes(): Promise<Uint8Array>;
}

/** Reads and compiles the .wasm once (Node); null where the glue code should fetch it itself. */
async function compileOnce(): Promise<WasmModule | null> {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (!isNode) return null;
  // Hidden from bundlers: the browser worker (apps/web/lib/viewer) lets the glue fetch the .wasm.
  const { readWasmBytes } = (await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ './node-wasm')) as NodeWasm;
  const bytes = await readWasmBytes();
  return WA.compile(bytes);
}

/** A fresh LibreDWG instance; LibreDWG's own console output goes to `log`. */
export async function loadWasm(log: (line: string) => void = () => {}): Promise<Wasm> {
  compiled ??= compileOnce();
  const mod = await compiled;
  const options: Record<string, unknown> = { print: log, printErr: log };
  if (mod) {
    // Emscripten awaits what this returns: the exports, once `done` has wired the instance in.
    options.instantiateWasm = (imports: object, done: (instance: WasmInstance, module: WasmModule) => unknown) =>
      WA.instantiate(mod, imports).then((instance) => done(instance, mod));
  }
  return (await (createModule as CreateModule)(options)) as Wasm;
}
