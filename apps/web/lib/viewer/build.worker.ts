// The viewer's build worker (decision 0021): the DXF reader and the display-list builder off the page's thread.
import { handleBuildRequest, type WorkerScope } from './build';
import type { BuildRequest } from './types';

const scope = self as unknown as WorkerScope & { onmessage: ((event: MessageEvent<BuildRequest>) => void) | null };
scope.onmessage = (event) => void handleBuildRequest(event.data, scope);
