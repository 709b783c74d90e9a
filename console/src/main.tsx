import '@mantine/core/styles.css'
import './console.css'
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'

const theme = createTheme({
  primaryColor: 'indigo',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
  // Shade 8 and darker greys keep text at a contrast of 4.5:1 or more (WCAG AA; checked by axe-core).
  primaryShade: 8,
  components: { Anchor: { defaultProps: { underline: 'always' } } },
})

const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <App />
    </MantineProvider>
  </StrictMode>,
)
