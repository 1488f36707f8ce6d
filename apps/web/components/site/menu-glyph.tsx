import type { ComponentType } from 'react';
import {
  BasicsGlyph,
  ComplaintGlyph,
  ConverterGlyph,
  CourseGlyph,
  EditorGlyph,
  FeedbackGlyph,
  ImageGlyph,
  LibraryGlyph,
  MasterGlyph,
  MobileGlyph,
  PdfGlyph,
  PdfToCadGlyph,
  ReceiptIcon,
  ToolboxGlyph,
  VersionGlyph,
  ViewerGlyph,
} from '@/components/ui/icons';
import type { IconProps } from '@/components/ui/icons';
import type { MenuIconName } from '@/lib/navigation/menu';

const GLYPHS: Readonly<Record<MenuIconName, ComponentType<IconProps>>> = {
  editor: EditorGlyph,
  converter: ConverterGlyph,
  viewer: ViewerGlyph,
  toolbox: ToolboxGlyph,
  course: CourseGlyph,
  library: LibraryGlyph,
  mobile: MobileGlyph,
  basics: BasicsGlyph,
  master: MasterGlyph,
  cad2pdf: PdfGlyph,
  cad2jpg: ImageGlyph,
  cad2ver: VersionGlyph,
  pdf2cad: PdfToCadGlyph,
  invoice: ReceiptIcon,
  feedback: FeedbackGlyph,
  complaint: ComplaintGlyph,
};

export function MenuGlyph({ name, ...props }: IconProps & { readonly name: MenuIconName }) {
  const Glyph = GLYPHS[name];
  return <Glyph {...props} />;
}
