import type { Appearance } from '@stripe/stripe-js';

// The Payment Element lives in Stripe's iframe and cannot see our CSS, so its look is passed
// through Stripe's appearance API. The values are read from the site's design tokens
// (src/styles/global.css) at run time, with the same values as fallbacks, so a token change
// restyles the card form too. Input shape and focus follow the booking form's fields.

const FALLBACK_TOKENS = {
  '--color-ink': '#121614',
  '--color-white': '#ffffff',
  '--color-paper': '#f6f5f1',
  '--color-concrete-300': '#b3b2aa',
  '--color-concrete-500': '#6a6963',
  '--color-concrete-600': '#51504b',
  '--color-accent-600': '#0d8862',
  '--color-danger-600': '#b42318',
} as const;

type Token = keyof typeof FALLBACK_TOKENS;

/** The rounding of the site's inputs (rounded-xl). */
const INPUT_RADIUS = '12px';

function readTokens(root: Element | null): Record<Token, string> {
  const style = root ? getComputedStyle(root) : null;
  const tokens = { ...FALLBACK_TOKENS } as Record<Token, string>;
  for (const name of Object.keys(FALLBACK_TOKENS) as Token[]) {
    const value = style?.getPropertyValue(name).trim();
    if (value) tokens[name] = value;
  }
  return tokens;
}

export function siteAppearance(root: Element | null = typeof document === 'undefined' ? null : document.documentElement): Appearance {
  const token = readTokens(root);
  return {
    theme: 'stripe',
    variables: {
      colorPrimary: token['--color-accent-600'],
      colorBackground: token['--color-white'],
      colorText: token['--color-ink'],
      colorTextSecondary: token['--color-concrete-600'],
      colorTextPlaceholder: token['--color-concrete-500'],
      colorDanger: token['--color-danger-600'],
      // Stripe's iframe cannot load our self-hosted Inter; the system stack is the metric-matched fallback's family.
      fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
      fontSizeBase: '16px',
      spacingUnit: '4px',
      borderRadius: INPUT_RADIUS,
      focusBoxShadow: 'none',
      focusOutline: `3px solid ${token['--color-accent-600']}`,
    },
    rules: {
      '.Label': { fontWeight: '600', color: token['--color-ink'], marginBottom: '8px' },
      '.Input': {
        borderColor: token['--color-concrete-300'],
        boxShadow: 'none',
        padding: '12px 16px',
      },
      '.Input:hover': { borderColor: token['--color-concrete-500'] },
      '.Input:focus': { borderColor: token['--color-ink'], boxShadow: 'none' },
      '.Input--invalid': { borderColor: token['--color-danger-600'], borderWidth: '2px' },
      '.Tab': { borderColor: token['--color-concrete-300'], boxShadow: 'none' },
      '.Tab--selected': { borderColor: token['--color-ink'], backgroundColor: token['--color-paper'] },
      '.Error': { fontWeight: '600' },
    },
  };
}
