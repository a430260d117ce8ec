import { BackOfficeScreen, screenHandle, screenLoader, screenMeta } from '../backoffice/BackOfficeScreen.js';

// Every screen under /backoffice/...: the loader answers 404 for a path that is none.
export const loader = screenLoader;
export const meta = screenMeta;
export const handle = screenHandle;
export default BackOfficeScreen;
