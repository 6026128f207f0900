"""The conditions the scaling benchmark and the tests ask about, written once: the reliability
review's hard queries (ten overlapping conditions each, then more), on Planetary
Conquerors' ``legal-80.txt``, the Star Trek CCG decks built from the catalog and Ren Dhark's
``terra-custom.txt``. Plain data, no imports: the tests load it by its path."""

from __future__ import annotations

#: The ten overlapping conditions of the reliability review, then ten more.
PC_CONDITIONS = [
    "type:warrior>=1",
    "type:building>=1",
    "type:miner>=1",
    "rarity:1>=2",
    "rarity:2>=1",
    "rarity:3<=1",
    "name:Trooper>=1",
    "cost_gold:2>=1",
    "cost_cosmium:1>=1",
    "lives:3<=2",
    "type:spell<=2",
    "type:trap<=1",
    "cost_gold:1>=1",
    "cost_cosmium:2>=1",
    "cost_electricity:1>=1",
    "cost_gold:0<=2",
    "cost_cosmium:0>=1",
    "rarity:1<=8",
    "lives:6<=1",
    "attack:1<=1",
]
STCCG_CONDITIONS = [
    "type:Personnel>=2",
    "type:Ship>=1",
    "type:Event>=1",
    "type:Interrupt>=1",
    "type:Equipment<=1",
    "affiliation:Federation>=1",
    "affiliation:Klingon>=1",
    "affiliation:Romulan<=1",
    "rarity:C>=1",
    "rarity:U>=1",
    "rarity:R<=2",
    "rarity:V>=1",
    "icons:Stf>=1",
    "icons:Cmd>=1",
    "icons:AU<=1",
    "type:Incident<=1",
    "affiliation:Non-Aligned>=1",
    "type:Objective<=1",
    "rarity:P<=1",
    "icons:DQ<=1",
]
RD_CONDITIONS = [
    "type:ship>=2",
    "type:action<=3",
    "type:person>=1",
    "type:unit>=1",
    "faction:Terra>=1",
    "faction:Nogkové<=1",
    "faction:Strážci<=1",
    "colour:blue>=3",
    "type:ship<=5",
    "type:unit<=3",
]
