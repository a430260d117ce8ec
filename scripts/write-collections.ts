import 'reflect-metadata';
import { brunoCollection, postmanCollection } from './contract/collections.js';
import { contractJson, contractPath, currentDocument, writeContractFile } from './contract/document.js';

// The collections the reference page offers, from the document as the code describes it today.
const document = currentDocument();
writeContractFile('postmanCollection', contractJson(await postmanCollection(document)));
console.log(`wrote ${contractPath('postmanCollection')}`);
writeContractFile('brunoCollection', contractJson(brunoCollection(document)));
console.log(`wrote ${contractPath('brunoCollection')}`);
