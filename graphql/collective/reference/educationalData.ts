// Educational reference data of the school platform (ADAGE): national programmes,
// domains of artistic and cultural education and student levels. Sandbox seed data.

/** A national cultural-education programme (`dispositif national`). */
export interface NationalProgramEntry {
  id: number;
  name: string;
}

/** A domain of artistic and cultural education, with the national programmes attached to it. */
export interface EducationalDomainEntry {
  id: number;
  name: string;
  nationalProgramIds: number[];
}

/** A student level a collective offer can be aimed at. */
export interface StudentLevelEntry {
  id: string;
  name: string;
}

export const nationalPrograms: readonly NationalProgramEntry[] = [
  { id: 1, name: 'Collège au cinéma' },
  { id: 2, name: 'Lycéens et apprentis au cinéma' },
  { id: 3, name: 'École et cinéma' },
  { id: 4, name: 'Olympiade culturelle' },
  { id: 5, name: 'Jeunes en librairie' },
  { id: 6, name: 'Théâtre au collège' },
  { id: 7, name: 'Plan chorale' },
  { id: 8, name: 'Levez les yeux !' },
  { id: 9, name: "Orchestre à l'école" },
  { id: 10, name: 'Les Enfants du patrimoine' },
];

export const educationalDomains: readonly EducationalDomainEntry[] = [
  { id: 1, name: 'Architecture', nationalProgramIds: [8, 10] },
  { id: 2, name: 'Arts du cirque et arts de la rue', nationalProgramIds: [4] },
  { id: 3, name: 'Arts numériques', nationalProgramIds: [] },
  { id: 4, name: 'Arts visuels, arts plastiques, arts appliqués', nationalProgramIds: [4] },
  { id: 5, name: 'Bande dessinée', nationalProgramIds: [5] },
  { id: 6, name: 'Cinéma, audiovisuel', nationalProgramIds: [1, 2, 3] },
  { id: 7, name: 'Culture scientifique, technique et industrielle', nationalProgramIds: [] },
  { id: 8, name: 'Danse', nationalProgramIds: [4] },
  { id: 9, name: 'Design', nationalProgramIds: [] },
  { id: 10, name: 'Développement durable', nationalProgramIds: [] },
  { id: 11, name: 'Univers du livre, de la lecture et des écritures', nationalProgramIds: [5] },
  { id: 12, name: 'Musique', nationalProgramIds: [4, 7, 9] },
  { id: 13, name: 'Patrimoine', nationalProgramIds: [8, 10] },
  { id: 14, name: 'Photographie', nationalProgramIds: [] },
  { id: 15, name: 'Théâtre, expression dramatique, marionnettes', nationalProgramIds: [4, 6] },
  { id: 16, name: 'Média et information', nationalProgramIds: [] },
];

export const studentLevels: readonly StudentLevelEntry[] = [
  { id: 'ECOLES_INNOVANTES', name: 'Écoles innovantes' },
  { id: 'ECOLES_MARSEILLE_MATERNELLE', name: 'Écoles Marseille - Maternelle' },
  { id: 'ECOLES_MARSEILLE_CP_CE1_CE2', name: 'Écoles Marseille - CP, CE1, CE2' },
  { id: 'ECOLES_MARSEILLE_CM1_CM2', name: 'Écoles Marseille - CM1, CM2' },
  { id: 'COLLEGE6', name: 'Collège - 6e' },
  { id: 'COLLEGE5', name: 'Collège - 5e' },
  { id: 'COLLEGE4', name: 'Collège - 4e' },
  { id: 'COLLEGE3', name: 'Collège - 3e' },
  { id: 'CAP1', name: 'CAP - 1re année' },
  { id: 'CAP2', name: 'CAP - 2e année' },
  { id: 'GENERAL2', name: 'Lycée - Seconde' },
  { id: 'GENERAL1', name: 'Lycée - Première' },
  { id: 'GENERAL0', name: 'Lycée - Terminale' },
];
