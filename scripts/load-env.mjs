// Preloaded by the npm scripts that run the project's code (`node --import ./scripts/load-env.mjs
// ...`): they read .env (or XCAD_ENV_FILE) the way `npm start` does, before any of their modules.
import { loadDotEnv } from './lib.mjs';

loadDotEnv();
