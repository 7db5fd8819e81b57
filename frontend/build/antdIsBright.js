// antd 6's `isBright` (antd/es/color-picker/components/ColorPresets.js), on its own. antd's Button and
// Tag styles import it from the ColorPresets module, which also holds the ColorPicker's presets panel
// and imports Collapse: every page with a Button then loaded Collapse and the ColorPicker's presets
// (about 5 KB gzip) because one page uses a ColorPicker. vite.config.ts points those two imports here.
// Keep in step with antd's (vite.config.ts checks that antd's still has this body).
import { Color as RcColor } from '@rc-component/color-picker';

export const isBright = (value, bgColorToken) => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  if (a <= 0.5) {
    // Adapted to dark mode
    return hsv.v > 0.5;
  }
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};
