//! The last phase: the whitespace between tokens is rewritten, as a
//! candidate the oracle judges like any other.
//!
//! With `--format compact` the policy proposes the compact layout (no line
//! breaks but those that end line comments and `#` lines), then, if the
//! oracle rejects it, the layout that keeps every line break but drops
//! indentation and needless spaces, then the tidy one. The default
//! (`readable`) proposes first the layout made from the parse tree
//! (`tree::layout`: one statement, member or element per line, indented by
//! nesting), in languages whose data opts in, then the tidy layout: the
//! input's spacing, without the blank lines and line-end spaces that
//! deletions leave behind; `--format original` proposes the tidy layout
//! alone. With `--format native`, an outside formatter's output (run by
//! the oracle module before the pass starts, `oracle/formatter.rs`) is
//! proposed before the layout made from the tree. Whichever passes first is kept; if none does, the text keeps its
//! whitespace as it was. Meaning that hangs on whitespace is therefore
//! never changed unless the oracle still passes.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Layout, Proposal};
use crate::languages::Language;
use crate::policy::Policy;
use crate::tree::layout::lay_out_text;
use crate::units::Units;

/// Proposes the layout made from the tree (when it has one), then the
/// given layouts in order, skipping any that would not change a byte of
/// the current text.
#[derive(Clone, Debug)]
pub(crate) struct Format {
    layouts: &'static [Layout],
    units: Arc<Units>,
    /// The grammar whose layout of the text is proposed first, if any.
    language: Option<Language>,
    /// An outside formatter's output, proposed before anything else.
    formatted: Option<Arc<[u8]>>,
    tried: usize,
}

/// `--format compact`: tightest first, the tidy layout last.
pub(crate) const COMPACT_LAYOUTS: &[Layout] = &[Layout::Compact, Layout::Lines, Layout::Tidy];

/// The default pipeline's readable result, after the tree's layout.
pub(crate) const READABLE_LAYOUTS: &[Layout] = &[Layout::Tidy];

/// How the result's whitespace is laid out (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Laid out from the parse tree, one statement, member or element per
    /// line (languages whose data opts in), else the input's whitespace
    /// tidied.
    #[default]
    Readable,
    /// The whitespace each kept token had in the input (tidied by the
    /// default pipeline).
    Original,
    /// As little whitespace as the oracle allows (tried once at the end).
    Compact,
    /// The language's own formatter's output (`formatters` in
    /// grammars/*.json, or `--format-with`) when one is installed and the
    /// oracle accepts it, else as [`Style::Readable`].
    Native,
}

impl Style {
    /// Every style, in `--format`'s order.
    pub const ALL: [Style; 4] = [
        Style::Readable,
        Style::Original,
        Style::Compact,
        Style::Native,
    ];

    /// The style's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Style::Readable => "readable",
            Style::Original => "original",
            Style::Compact => "compact",
            Style::Native => "native",
        }
    }

    /// The layouts the format pass proposes for this style, in order
    /// (after the tree's own, for [`Style::Readable`]).
    pub(crate) fn layouts(self) -> &'static [Layout] {
        match self {
            Style::Readable | Style::Original | Style::Native => READABLE_LAYOUTS,
            Style::Compact => COMPACT_LAYOUTS,
        }
    }

    /// Whether the layout made from the tree is proposed first.
    pub(crate) fn lays_out_by_tree(self) -> bool {
        matches!(self, Style::Readable | Style::Native)
    }

    /// Whether an outside formatter is asked first.
    pub(crate) fn uses_formatter(self) -> bool {
        self == Style::Native
    }
}

impl Format {
    pub fn new(layouts: &'static [Layout], units: Arc<Units>) -> Self {
        Format {
            layouts,
            units,
            language: None,
            formatted: None,
            tried: 0,
        }
    }

    /// Proposes `formatted` (a formatter's output) first.
    pub fn formatted(mut self, formatted: Option<Arc<[u8]>>) -> Self {
        self.formatted = formatted;
        self
    }

    /// Proposes first the text laid out from a fresh parse with `language`
    /// (when its grammar has layout facts): the tree the run started from
    /// no longer matches a text that the closing passes changed.
    pub fn laid_out_as(mut self, language: Option<Language>) -> Self {
        self.language = language;
        self
    }

    /// `current`, the text of `config`, laid out from its parse, as
    /// rewrites of the kept units (see [`Self::relaid`]).
    fn tree_layout(
        &self,
        language: Language,
        config: &Configuration,
        current: &[u8],
    ) -> Option<Proposal> {
        let laid = lay_out_text(language, current)?;
        if laid == current {
            return None;
        }
        self.relaid(config, &laid)
    }

    /// `laid`, a text with the same bytes as `config`'s but for
    /// whitespace, as rewrites of the kept units: each byte that is not
    /// whitespace goes to the unit whose text holds it, with the
    /// whitespace before it (the whitespace at the end to the last unit).
    fn relaid(&self, config: &Configuration, laid: &[u8]) -> Option<Proposal> {
        // Pieces of whitespace, each ended by one byte that is not.
        let mut pieces = laid.split_inclusive(|b| !b.is_ascii_whitespace());
        let mut rewrites: Vec<(u32, Vec<u8>)> = Vec::new();
        for u in config.kept.iter() {
            let solid = self.units.token_text(config, u);
            let mut text = Vec::new();
            for _ in solid.iter().filter(|b| !b.is_ascii_whitespace()) {
                text.extend_from_slice(pieces.next()?);
            }
            rewrites.push((u, text));
        }
        let (_, last) = rewrites.last_mut()?;
        pieces.for_each(|rest| last.extend_from_slice(rest));
        let proposal = Proposal {
            delta: Delta::new(),
            rewrites: rewrites
                .into_iter()
                .map(|(u, t)| (u, Arc::from(t)))
                .collect(),
            layout: Some(Layout::Given),
        };
        let relaid = config.apply(&proposal)?;
        (self.units.render(&relaid) == laid).then_some(proposal)
    }

    /// `text` (a formatter's output, whose tokens may differ from the
    /// current ones: quotes changed, a comma added) as a proposal: spread
    /// over the kept units where only whitespace differs, else the whole
    /// text as the first kept unit's, the others kept but rendering empty.
    fn replaced_by(&self, config: &Configuration, text: &[u8]) -> Option<Proposal> {
        if let Some(proposal) = self.relaid(config, text) {
            return Some(proposal);
        }
        let first = config.kept.iter().next()?;
        let proposal = Proposal {
            delta: Delta::new(),
            rewrites: config
                .kept
                .iter()
                .map(|u| (u, Arc::from(if u == first { text } else { &b""[..] })))
                .collect(),
            layout: Some(Layout::Given),
        };
        let replaced = config.apply(&proposal)?;
        (self.units.render(&replaced) == text).then_some(proposal)
    }
}

impl Policy for Format {
    fn name(&self) -> String {
        "format".into()
    }

    fn start_pass(&mut self, _config: &Configuration) {}

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        let current = self.units.render(config);
        if let Some(formatted) = self.formatted.take() {
            if *formatted == *current {
                // Already as the formatter writes it: nothing else to propose.
                self.language = None;
                self.tried = self.layouts.len();
                return None;
            }
            if let Some(proposal) = self.replaced_by(config, &formatted) {
                return Some(proposal);
            }
        }
        if let Some(language) = self.language.take()
            && let Some(proposal) = self.tree_layout(language, config, &current)
        {
            return Some(proposal);
        }
        while let Some(&layout) = self.layouts.get(self.tried) {
            self.tried += 1;
            let mut relaid = config.clone();
            relaid.layout = layout;
            if self.units.render(&relaid) != current {
                return Some(Proposal::relayout(layout));
            }
        }
        None
    }

    fn on_reduced(&mut self, _reduced: Option<&Configuration>) -> bool {
        false // the first layout that passes is the one wanted most
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::UnitKind;

    fn proposals(format: &mut Format, config: &Configuration) -> Vec<Layout> {
        std::iter::from_fn(|| format.next_proposal(config))
            .map(|p| p.layout.unwrap())
            .collect()
    }

    #[test]
    fn a_layout_that_changes_no_byte_is_not_proposed() {
        let units = Arc::new(Units::flat(
            b"int x;\n\n\n\nint y;  \n".to_vec(),
            UnitKind::Token,
        ));
        let config = Configuration::full(units.len());
        let mut readable = Format::new(READABLE_LAYOUTS, Arc::clone(&units));
        assert_eq!(proposals(&mut readable, &config), [Layout::Tidy]);
        let mut tidied = config.clone();
        tidied.layout = Layout::Tidy;
        assert_eq!(units.render(&tidied), b"int x;\n\nint y;\n");
        // Once tidy, nothing is left to propose; the same holds for a text
        // that was tidy from the start.
        let mut again = Format::new(READABLE_LAYOUTS, Arc::clone(&units));
        assert!(proposals(&mut again, &tidied).is_empty());
        let tidy_input = Arc::new(Units::flat(b"int x;\n\nint y;\n".to_vec(), UnitKind::Token));
        let mut format = Format::new(READABLE_LAYOUTS, Arc::clone(&tidy_input));
        assert!(proposals(&mut format, &Configuration::full(tidy_input.len())).is_empty());
        // Compact: every layout differs here, tightest first.
        let mut compact = Format::new(COMPACT_LAYOUTS, units);
        assert_eq!(
            proposals(&mut compact, &config),
            [Layout::Compact, Layout::Lines, Layout::Tidy]
        );
    }
}
