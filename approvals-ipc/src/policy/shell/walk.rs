//! The program's AST to a flat chain of pipelines of simple commands.
//!
//! Decides the chain: every `;` and newline starts a [`ChainOp::Seq`] item,
//! `&&` and `||` an [`ChainOp::And`] or [`ChainOp::Or`] item (bash's lists are
//! left-associative, so a flat chain with "previous status" semantics is
//! exact). Refuses background `&`, `!`, `time`, every compound command
//! (subshells, brace groups, control flow, `[[ ]]`, `(( ))`, coprocesses) and
//! function definitions. Upholds DESIGN.md invariant 3.

use brush_parser::ast::{self, AndOr, Command, CompoundCommand, SeparatorOperator};

use super::command::simple_command;
use super::word::WordContext;
use super::{ChainItem, ShellRefusal, SimpleCommand};
use crate::policy::plan::ChainOp;

/// Every and-or list of the program, in order, as chain items.
pub(super) fn program(
    program: &ast::Program,
    ctx: &WordContext<'_>,
) -> Result<Vec<ChainItem>, ShellRefusal> {
    let mut items = Vec::new();
    for list in &program.complete_commands {
        for ast::CompoundListItem(and_or, separator) in &list.0 {
            if matches!(separator, SeparatorOperator::Async) {
                return Err(ShellRefusal::Background);
            }
            items.push(ChainItem {
                op: ChainOp::Seq,
                pipeline: pipeline(&and_or.first, ctx)?,
            });
            for next in &and_or.additional {
                let (op, next) = match next {
                    AndOr::And(p) => (ChainOp::And, p),
                    AndOr::Or(p) => (ChainOp::Or, p),
                };
                items.push(ChainItem {
                    op,
                    pipeline: pipeline(next, ctx)?,
                });
            }
        }
    }
    Ok(items)
}

/// The commands of one pipeline, left to right.
fn pipeline(
    pipeline: &ast::Pipeline,
    ctx: &WordContext<'_>,
) -> Result<Vec<SimpleCommand>, ShellRefusal> {
    if pipeline.timed.is_some() {
        return Err(ShellRefusal::Time);
    }
    if pipeline.bang {
        return Err(ShellRefusal::Negation);
    }
    if pipeline.seq.is_empty() {
        return Err(ShellRefusal::EmptyCommand);
    }
    pipeline
        .seq
        .iter()
        .map(|command| match command {
            Command::Simple(simple) => simple_command(simple, ctx),
            Command::Compound(compound, _) => Err(compound_refusal(compound)),
            Command::Function(function) => Err(ShellRefusal::FunctionDefinition {
                name: function.fname.value.clone(),
            }),
            Command::ExtendedTest(..) => Err(ShellRefusal::ControlFlow { keyword: "[[" }),
        })
        .collect()
}

/// The refusal naming a compound command.
fn compound_refusal(compound: &CompoundCommand) -> ShellRefusal {
    let keyword = match compound {
        CompoundCommand::Subshell(_) => return ShellRefusal::Subshell,
        CompoundCommand::BraceGroup(_) => return ShellRefusal::BraceGroup,
        CompoundCommand::Coprocess(_) => return ShellRefusal::Coprocess,
        CompoundCommand::Arithmetic(_) => "((",
        CompoundCommand::ArithmeticForClause(_) => "for ((",
        CompoundCommand::ForClause(_) => "for",
        CompoundCommand::CaseClause(_) => "case",
        CompoundCommand::IfClause(_) => "if",
        CompoundCommand::WhileClause(_) => "while",
        CompoundCommand::UntilClause(_) => "until",
    };
    ShellRefusal::ControlFlow { keyword }
}
