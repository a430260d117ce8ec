import { BackOfficeScreen, screenHandle, screenLoader, screenMeta } from '../backoffice/BackOfficeScreen.js';

export const loader = screenLoader;
export const meta = screenMeta;
export const handle = screenHandle;
export default BackOfficeScreen;
