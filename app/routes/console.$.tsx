import { ConsoleScreen, consoleHandle, consoleLoader, consoleMeta } from '../console/ConsoleScreen.js';

// Every screen under /console/...: the loader answers 404 for a path that is none.
export const loader = consoleLoader;
export const meta = consoleMeta;
export const handle = consoleHandle;
export default ConsoleScreen;
