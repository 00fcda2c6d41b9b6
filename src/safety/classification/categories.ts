/**
 * The safety categories, as the research system specifies them. The
 * descriptions go into the classifier's system prompt.
 */
export const CATEGORIES = ['none', 'dual_use_bio', 'cbrn', 'weapons', 'illicit_synthesis', 'csam'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_DESCRIPTIONS: Record<Category, string> = {
  none: 'No safety concern: ordinary scientific content, including research on pathogens, toxins or drugs that does not give a route to misuse.',
  dual_use_bio:
    'Research that could be misused for biological harm: enhancing transmissibility, virulence, host range or immune evasion of pathogens, reconstituting dangerous agents, or methods that lower the barrier to causing biological harm.',
  cbrn: 'Chemical, biological, radiological or nuclear weapons: agents, their production, weaponisation, delivery or dispersal.',
  weapons:
    'Conventional weapons synthesis or improvement: explosives, firearms, munitions and their manufacture or enhancement.',
  illicit_synthesis:
    'Drug or precursor synthesis routes for unlawful use: making controlled substances or their precursors.',
  csam: 'Any sexual content involving minors.',
};
