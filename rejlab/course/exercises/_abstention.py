"""Exercises of lesson 19 (systems that may answer "I don't know"), on data not the lesson's own."""

from __future__ import annotations

from ...abstention import abstention_scores, break_even_target, penalized_score, rule_scores
from ..datasets import qa_answers
from ._registry import exercise


def _system(right, wrong, abstained):
    """Scores of a system with these counts of right, wrong and abstained answers."""
    correct = [True] * right + [False] * (wrong + abstained)
    answered = [True] * (right + wrong) + [False] * abstained
    return correct, answered


@exercise("19-1", "Of 800 questions a system answers 600, 420 of them correctly, and says "
          "\"I don't know\" to the others. With the confidence target t = 0.75 (a wrong answer "
          "costs t / (1 - t) points, a right one earns 1, \"I don't know\" 0), what is its "
          "penalized score per question?",
          hint="accuracy and error rate are shares of all 800 questions; the penalty is "
               "rl.penalty(0.75); rl.abstention_scores(correct, answered, t=0.75) does it all.",
          explanation="-0.15: right on 52.5 % of the questions, wrong on 22.5 %, each error "
                      "costing 3 points. Below 0, the score of saying \"I don't know\" to "
                      "everything: at this target a system should answer only where it is right "
                      "more than 75 % of the time, and this one is right on 70 % of its answers.",
          misconceptions=(
              "That is its accuracy, the score under binary grading (t = 0): the penalty for the "
              "wrong answers is missing.",
              "That is its selective accuracy (right answers / answered questions): neither a "
              "score nor a share of all questions.",
              "That uses t itself as the penalty; a wrong answer costs t / (1 - t) points.",
              "Those rates are shares of the answered questions; the score counts right and wrong "
              "answers among all 800 questions (an abstention is a question too).",
          ))
def _():
    correct, answered = _system(420, 180, 200)
    s = abstention_scores(correct, answered, t=0.75)
    return s.score, (
        s.accuracy,
        s.selective_accuracy,
        s.accuracy - 0.75 * s.error_rate,
        penalized_score(s.selective_accuracy, 1 - s.selective_accuracy, 0.75),
    )


@exercise("19-2", "(Derivation.) Show that two systems score the same at the target "
          "t0 = -(accuracy_1 - accuracy_2) / (abstained_1 - abstained_2), and that the one that "
          "abstains more ranks first above it. System A is right on 42 % of the questions and "
          "wrong on 38 %; system B is right on 30 % and wrong on 8 %. Above which target t does "
          "B rank first?",
          hint="write S_A - S_B = (accuracy_A - accuracy_B) - ω (error_A - error_B) with "
               "ω = t / (1 - t), set it to 0, then turn the ω you find into a t; "
               "rl.break_even_target(scores_A, scores_B) checks it.",
          explanation="2/7 ≈ 0.286: B has 12 points less accuracy but 30 points fewer errors, "
                      "so they tie when a wrong answer costs 12/30 = 0.4 points, which is "
                      "t = 0.4 / 1.4. It is 1 - rho_0 of lesson 05: the abstentions are the "
                      "rejections, the target t is one minus the price of a rejection.",
          misconceptions=(
              "That is the penalty ω = t / (1 - t) at which they tie (or t read as the penalty); "
              "turn it into the target t = ω / (1 + ω).",
              "That is 1 - t0: the break-even price rho_0 of lesson 05 (or the ratio turned upside "
              "down). The target is one minus that price.",
          ))
def _():
    a = abstention_scores(*_system(42, 38, 20))
    b = abstention_scores(*_system(30, 8, 62))
    t0 = break_even_target(b, a)
    tie = (a.accuracy - b.accuracy) / (a.error_rate - b.error_rate)
    return t0, (tie, 1 - t0)


@exercise("19-3", "Draw rl.datasets.qa_answers(seed=3). If the guesser answered only where its "
          "confidence exceeds t = 0.5 (a wrong answer costs 1 point) and said \"I don't know\" "
          "elsewhere, what would its penalized score be?",
          hint="rl.answer_above(confidence, 0.5) is the rule; rl.rule_scores(correct, "
               "confidence, 0.5) scores it.",
          explanation="About +0.02, against -0.51 for the same system answering 99 % of the questions: "
                      "answering only where its (calibrated) confidence exceeds t turns a large loss into a "
                      "small gain. It answers about a tenth of the questions, right on about 60 % of them.",
          misconceptions=(
              "That is its score as it answers (99 % of the questions): the question asks what "
              "answering only above t = 0.5 would score.",
              "That is the rule's accuracy alone: its wrong answers still cost a point each.",
              "That is the rule's selective accuracy (right / answered), not its score.",
          ))
def _():
    guesser = qa_answers(seed=3).guesser
    rule = rule_scores(guesser.correct, guesser.confidence, 0.5)
    as_it_answers = abstention_scores(guesser.correct, guesser.answered, t=0.5)
    return rule.score, (as_it_answers.score, rule.accuracy, rule.selective_accuracy)
