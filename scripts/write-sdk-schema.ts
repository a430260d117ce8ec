import { writeFileSync } from 'node:fs';
import { sdkSchemaPath, sdkSchemaSource } from './sdkSchema.js';

writeFileSync(sdkSchemaPath, await sdkSchemaSource());
console.log(`wrote ${sdkSchemaPath}`);
