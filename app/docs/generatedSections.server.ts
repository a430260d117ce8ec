import { collectiveActionsSection } from './collectiveActions.server.js';
import {
  demoSandboxSection,
  eanCatalogueSection,
  educationalDomainsSection,
  institutionsSection,
  studentLevelsSection,
} from './testData.server.js';

/**
 * Sections of the docs written from the server's own data when the docs are loaded: a line
 * `<!-- generated: NAME -->` in a page's Markdown is replaced by the section NAME. The comment is
 * what the Markdown source shows; readers see the section.
 */
export const generatedSections: Record<string, () => string> = {
  'ean-catalogue': eanCatalogueSection,
  'educational-domains': educationalDomainsSection,
  'student-levels': studentLevelsSection,
  'educational-institutions': institutionsSection,
  'demo-sandbox': demoSandboxSection,
  'collective-actions': collectiveActionsSection,
};

const DIRECTIVE = /^<!--\s*generated:\s*([\w-]+)\s*-->[ \t]*$/gm;

/** The Markdown with every directive replaced by its section; an unknown name is an error. */
export function expandGeneratedSections(markdown: string, file: string): string {
  return markdown.replace(DIRECTIVE, (_directive, name: string) => {
    const section = generatedSections[name];
    if (!section)
      throw new Error(`${file}: no generated section "${name}" (known: ${Object.keys(generatedSections).join(', ')})`);
    return section();
  });
}
