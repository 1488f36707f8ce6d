// SPDX-License-Identifier: GPL-3.0-or-later
// The DWG reading worker (decisions 0021 and 0016): LibreDWG through @xcad/cad-dwg, loaded only when
// a DWG is opened. It shares nothing with the viewer but messages; see packages/cad-dwg/README.md.
import { serveDwgWorker } from '@xcad/cad-dwg/browser';

serveDwgWorker(self as unknown as Parameters<typeof serveDwgWorker>[0]);
