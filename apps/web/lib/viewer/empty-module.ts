// Stands in for Node's `module` in browser bundles (next.config.ts): LibreDWG's Emscripten glue
// imports it only on its Node path, which never runs in the viewer's DWG worker.
export {};
